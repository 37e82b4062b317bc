import { Agent, GuardrailTripwireError } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { SequentialWorkflow } from './sequential-workflow.js';

const Brief = z.object({ title: z.string(), points: z.array(z.string()) });

describe('SequentialWorkflow outputType', () => {
  it("types the last step's answer as result.finalOutput", async () => {
    const researcher = new Agent({
      name: 'researcher',
      model: new ScriptedModel([reply('Bike lanes cut crashes.')]),
    });
    const writerModel = new ScriptedModel([
      toolCall('final_output', { title: 'Bike lanes', points: ['They cut crashes.'] }),
    ]);
    const writer = new Agent({ name: 'writer', model: writerModel });
    const workflow = new SequentialWorkflow({ agents: [researcher, writer], outputType: Brief });
    const result = await workflow.run('Brief the council on bike lanes.');
    expectTypeOf(result.finalOutput).toEqualTypeOf<{ title: string; points: string[] } | undefined>();
    expect(result.finalOutput).toEqual({ title: 'Bike lanes', points: ['They cut crashes.'] });
    // Only the last step was held to the schema; it saw the researcher's turn.
    expect(writerModel.calls[0]?.toolChoice).toEqual({ name: 'final_output' });
    expect(writerModel.calls[0]?.messages.at(-1)?.content).toBe('Bike lanes cut crashes.');
  });

  it('gives the last text as finalOutput without outputType', async () => {
    const one = new Agent({ name: 'one', model: new ScriptedModel([reply('done')]) });
    const result = await new SequentialWorkflow({ agents: [one] }).run('go');
    expect(result.finalOutput).toBe('done');
  });

  it('refuses an outputType when the last member is a topology', () => {
    const inner = new SequentialWorkflow({
      agents: [new Agent({ name: 'x', model: new ScriptedModel([]) })],
    });
    const first = new Agent({ name: 'first', model: new ScriptedModel([]) });
    expect(() => new SequentialWorkflow({ agents: [first, inner], outputType: Brief })).toThrow(
      /last member/,
    );
  });
});

describe('SequentialWorkflow guardrails', () => {
  it('takes inputGuardrails in its options, and a trip stops the pipeline before the second step', async () => {
    const second = new ScriptedModel([]);
    const workflow = new SequentialWorkflow({
      agents: [
        new Agent({ name: 'first', model: new ScriptedModel([reply('step one')]) }),
        new Agent({ name: 'second', model: second }),
      ],
      inputGuardrails: [
        { name: 'no-pii', check: (task) => ({ tripwire: task.includes('SSN'), info: 'PII' }) },
      ],
    });
    const error = await workflow.run('Here is my SSN: 123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailTripwireError);
    expect(error).toMatchObject({ guardrail: 'no-pii', kind: 'input', info: 'PII' });
    expect(second.calls).toHaveLength(0);
  });
});
