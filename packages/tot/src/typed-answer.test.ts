import { ConfigError } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TreeOfThoughts } from './tree-of-thoughts.js';

const solution = z.object({ expression: z.string().min(1), value: z.number() });

describe('TreeOfThoughts with a z.object as outputType', () => {
  it('writes the answer as a validated object: finalOutput, and its JSON as answer and output', async () => {
    const model = autoModel({
      override: (request) =>
        typeof request.toolChoice === 'object' && request.toolChoice.name === 'final_answer'
          ? {
              text: '',
              toolCalls: [{ name: 'final_answer', arguments: { expression: '(10-4)*(13-9)', value: 24 } }],
            }
          : undefined,
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2, maxDepth: 1, breadth: 1, outputType: solution });
    const result = await tot.search('Use 4 9 10 13 to make 24.');
    expect(result.finalOutput).toEqual({ expression: '(10-4)*(13-9)', value: 24 });
    expect(JSON.parse(result.answer)).toEqual(result.finalOutput);
    expect(result.output).toBe(result.answer);
    const answerCall = model.calls.find(
      (c) => typeof c.toolChoice === 'object' && c.toolChoice.name === 'final_answer',
    );
    expect(Object.keys((answerCall!.tools![0]!.parameters as { properties: object }).properties)).toEqual([
      'expression',
      'value',
    ]);
  });

  it('refuses a schema with an answer function, and anything that is neither a format nor a z.object', () => {
    expect(
      () => new TreeOfThoughts({ model: autoModel(), outputType: solution, answerStrategy: () => 'x' }),
    ).toThrow(ConfigError);
    expect(() => new TreeOfThoughts({ model: autoModel(), outputType: 'summary' as 'final' })).toThrow(
      /outputType must be one of .*or a z\.object/,
    );
  });
});
