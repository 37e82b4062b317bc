import { Agent, type Guardrail, GuardrailTripwireError, type SwarmEvent } from '@swarm/core';
import { respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForestSwarm } from './forest-swarm.js';
import { routingTrees } from './test-helpers.js';

/** Every agent answers "<name> answers" forever. */
const answering = (name: string) => new ScriptedModel([], { fallback: respond(() => `${name} answers`) });

/** Trips on any text that mentions a marathon. */
const noMarathons: Guardrail = {
  name: 'no-marathons',
  check: (value) => ({ tripwire: /marathon/i.test(value), info: { saw: value } }),
};

const tasks = [
  'How many calories should I eat to lose weight?',
  'Create a 16 week marathon training program.',
  'How should we store user passwords securely with encryption?',
];

describe('ForestSwarm.batchedRun guardrails', () => {
  it("trips the forest's constructor input guardrail for that task alone", async () => {
    const forest = new ForestSwarm({ trees: routingTrees(answering), inputGuardrails: [noMarathons] });
    const events: SwarmEvent[] = [];
    const settled = await forest.batchedRun(tasks, { onEvent: (e) => events.push(e) });
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = settled[1]!.status === 'rejected' ? settled[1]!.reason : undefined;
    expect(reason).toBeInstanceOf(GuardrailTripwireError);
    expect(reason).toMatchObject({ guardrail: 'no-marathons', kind: 'input', info: { saw: tasks[1] } });
    expect(settled[0]).toMatchObject({ value: { output: 'Nutritionist answers' } });
    expect(settled[2]).toMatchObject({ value: { output: 'Security Engineer answers' } });
    expect(events.filter((e) => e.type === 'guardrail.trip')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'guardrail.pass')).toHaveLength(2);
  });

  it("holds a batch run's own input guardrails per task too", async () => {
    const forest = new ForestSwarm({ trees: routingTrees(answering) });
    const settled = await forest.batchedRun(tasks, { inputGuardrails: [noMarathons] });
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1]).toMatchObject({
      reason: { name: 'GuardrailTripwireError', guardrail: 'no-marathons' },
    });
  });

  it("checks each answer with the forest's output guardrails, a guardrail agent's call in that task's totals", async () => {
    const judgeModel = new ScriptedModel([], {
      fallback: toolCall('final_output', { tripwire: false }),
      usage: { inputTokens: 1000, outputTokens: 7 },
    });
    const judge = new Agent({
      name: 'judge',
      model: judgeModel,
      outputType: z.object({ tripwire: z.boolean() }),
    });
    const forest = new ForestSwarm({ trees: routingTrees(answering), outputGuardrails: [judge] });
    const settled = await forest.batchedRun(tasks.slice(0, 2));
    expect(judgeModel.calls.map((c) => JSON.stringify(c.messages)).sort()).toEqual([
      expect.stringContaining('Fitness Coach answers'),
      expect.stringContaining('Nutritionist answers'),
    ]);
    for (const outcome of settled) {
      // One call of the agent that answered, one of the judge.
      expect(outcome).toMatchObject({
        status: 'fulfilled',
        value: { llmCalls: 2, liveCalls: 2, usage: { inputTokens: 1010, outputTokens: 12 } },
      });
    }
  });
});
