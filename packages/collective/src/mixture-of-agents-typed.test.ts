import { Agent, GuardrailTripwireError } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { MixtureOfAgents } from './mixture-of-agents.js';

const Verdict = z.object({ answer: z.string(), confidence: z.number() });

const worker = (name: string, text: string) => new Agent({ name, model: new ScriptedModel([reply(text)]) });

describe('MixtureOfAgents outputType', () => {
  it("types the aggregator's answer as result.finalOutput, repairing an invalid object", async () => {
    const aggregatorModel = new ScriptedModel([
      toolCall('final_output', { answer: 'Paris' }),
      toolCall('final_output', { answer: 'Paris', confidence: 0.9 }),
    ]);
    const moa = new MixtureOfAgents({
      agents: [worker('a', 'Paris.'), worker('b', 'Paris, France.')],
      aggregator: new Agent({ name: 'judge', model: aggregatorModel }),
      layers: 1,
      outputType: Verdict,
    });
    const result = await moa.run('Capital of France?');
    expectTypeOf(result.finalOutput).toEqualTypeOf<{ answer: string; confidence: number } | undefined>();
    expect(result.finalOutput).toEqual({ answer: 'Paris', confidence: 0.9 });
    expect(aggregatorModel.calls[1]?.messages.at(-1)?.content).toContain('confidence');
    expect(result.llmCalls).toBe(4);
  });
});

describe('MixtureOfAgents guardrails', () => {
  it('takes outputGuardrails in its options: a trip ends the run after the aggregator answered', async () => {
    const moa = new MixtureOfAgents({
      agents: [worker('a', 'Take 3 pills.')],
      aggregator: worker('judge', 'Take 3 pills a day.'),
      layers: 1,
      outputGuardrails: [
        { name: 'no-dosage', check: (output) => ({ tripwire: /pills/.test(output), info: { output } }) },
      ],
    });
    const error = await moa.run('How much should I take?').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailTripwireError);
    expect(error).toMatchObject({
      guardrail: 'no-dosage',
      kind: 'output',
      info: { output: 'Take 3 pills a day.' },
    });
  });
});
