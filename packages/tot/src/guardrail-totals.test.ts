import { Agent, type SwarmEvent } from '@swarm/core';
import { ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { treeModel } from './test-support.js';
import { TreeOfThoughts } from './tree-of-thoughts.js';

// An output guardrail that is an Agent: its model call belongs to the search it checks.
function judgeAgent() {
  const model = new ScriptedModel([toolCall('final_output', { tripwire: false, reason: 'on topic' })], {
    usage: { inputTokens: 1000, outputTokens: 7 },
  });
  const judge = new Agent({
    name: 'judge',
    model,
    outputType: z.object({ tripwire: z.boolean(), reason: z.string() }),
  });
  return { judge, model };
}

describe('TreeOfThoughts totals', () => {
  it("count an output guardrail agent's call in llmCalls and usage, the result's, its JSON's and run.end's", async () => {
    const { judge, model: judgeModel } = judgeAgent();
    const model = treeModel({ children: { '': ['only'] } });
    const tot = new TreeOfThoughts({ model, maxDepth: 1, outputGuardrails: [judge] });
    const events: SwarmEvent[] = [];
    const result = await tot.search('Task.', { onEvent: (e) => events.push(e) });
    expect(judgeModel.calls).toHaveLength(1);
    const searchCalls = model.calls.length;
    expect(result.llmCalls).toBe(searchCalls + 1);
    expect(result.liveCalls).toBe(searchCalls + 1);
    expect(result.usage.inputTokens).toBe(searchCalls * 10 + 1000);
    expect(result.usage.outputTokens).toBe(searchCalls * 5 + 7);
    expect(result.toJSON()).toMatchObject({ llmCalls: searchCalls + 1, usage: result.usage });
    const end = events.find((e) => e.type === 'run.end' && e.parentRunId === undefined);
    expect(end).toMatchObject({ llmCalls: searchCalls + 1, usage: result.usage, solved: true });
    expect(tot.lastResult?.llmCalls).toBe(searchCalls + 1);
    expect(tot.usage.inputTokens).toBe(searchCalls * 10 + 1000);
  });
});
