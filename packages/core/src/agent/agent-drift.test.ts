// Where the Agent's run lifecycle had drifted from the topologies' (issue "One run kernel"): each
// test failed before the kernel was rebuilt and passes through its one lifecycle.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BudgetExceededError, RunPausedError } from '../kernel/errors.js';
import { memoryJournal } from '../kernel/journal.js';
import { tool } from '../primitives/tool.js';
import { object, reply, ScriptedModel, toolCalls } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

const verdict = z.object({ tripwire: z.boolean(), reason: z.string() });

function guardAgent(name: string): { agent: Agent<z.infer<typeof verdict>>; model: ScriptedModel } {
  const model = new ScriptedModel([object({ tripwire: false, reason: 'fine' })], {
    usage: { inputTokens: 7, outputTokens: 3 },
  });
  return { agent: new Agent({ name, model, outputType: verdict }), model };
}

describe('an Agent run counts every call it made', () => {
  it("counts its input guardrail agent's call in llmCalls and usage", async () => {
    const guard = guardAgent('topic-check');
    const model = new ScriptedModel([reply('Paris.')], { usage: { inputTokens: 10, outputTokens: 2 } });
    const agent = new Agent({ name: 'geo', model, inputGuardrails: [guard.agent] });

    const result = await agent.run('Capital of France?');

    expect(guard.model.calls).toHaveLength(1);
    expect(result.llmCalls).toBe(2);
    expect(result.ownLlmCalls).toBe(1);
    expect(result.usage.inputTokens).toBe(17);
    expect(result.usage.outputTokens).toBe(5);
    expect(result.liveCalls).toBe(2);
  });

  it("counts its output guardrail agent's call, also inside a shared run", async () => {
    const guard = guardAgent('tone-check');
    const model = new ScriptedModel([reply('Paris.')], { usage: { inputTokens: 10, outputTokens: 2 } });
    const agent = new Agent({ name: 'geo', model, outputGuardrails: [guard.agent] });
    const sibling = new Agent({ name: 'other', model: new ScriptedModel([reply('x')]) });
    const { RunContext } = await import('../kernel/run-context.js');
    const context = new RunContext({});
    await sibling.run('warm up', { context });

    const result = await agent.run('Capital of France?', { context });

    // The sibling's call is the shared run's, not this agent's.
    expect(result.llmCalls).toBe(2);
    expect(result.usage.totalTokens).toBe(22);
    expect(context.llmCalls).toBe(3);
  });
});

describe('a turn whose calls both pause and stop the run', () => {
  it("fails with the stopping call's error: a pause beside it does not drop it", async () => {
    const executed: string[] = [];
    const pay = tool({
      name: 'pay',
      description: 'Pays an amount.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => {
        executed.push(`pay ${amount}`);
        return 'paid';
      },
    });
    const quota = tool({
      name: 'quota',
      description: 'Checks the quota.',
      parameters: z.object({}),
      execute: () => {
        throw new BudgetExceededError('budget:calls', 'The quota of the shared account is spent.');
      },
    });
    const model = new ScriptedModel([
      toolCalls(
        { name: 'pay', arguments: { amount: 10 }, id: 'c1' },
        { name: 'quota', arguments: {}, id: 'c2' },
      ),
      reply('unreachable'),
    ]);
    const agent = new Agent({ name: 'desk', model, tools: [pay, quota] });

    const run = agent.run('Pay 10.', { journal: memoryJournal(), runId: 'drift-pause' });

    await expect(run).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(run).rejects.not.toBeInstanceOf(RunPausedError);
    expect(executed).toEqual([]);
  });
});
