import { Agent } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { ForestSwarm, Tree, TreeAgent } from './index.js';

describe('an agent that calls a forest through asTool', () => {
  it("reports the forest's calls and tokens in its totals, and its own apart", async () => {
    const expertModel = new ScriptedModel([reply('File form 1120 by April 15.')]);
    const forest = new ForestSwarm({
      trees: [
        new Tree({
          name: 'Finance',
          agents: [
            new TreeAgent({
              name: 'Tax Expert',
              systemPrompt: 'I am a tax expert: tax returns, deductions, corporate taxation.',
              model: expertModel,
            }),
            new TreeAgent({
              name: 'Retirement Planner',
              systemPrompt: 'I plan retirement: pensions, 401(k), IRA.',
              model: expertModel,
            }),
          ],
        }),
      ],
    });
    const triageModel = new ScriptedModel([
      toolCall('ask_experts', { task: 'How do I file corporate taxes on my tax return?' }),
      reply('File form 1120 by April 15.'),
    ]);
    const triage = new Agent({
      name: 'triage',
      model: triageModel,
      tools: [forest.asTool({ name: 'ask_experts', description: 'Ask the right expert.' })],
    });
    const result = await triage.run('How do I file taxes?', { budget: { maxCalls: 10 } });
    expect(expertModel.calls).toHaveLength(1);
    // 15 tokens a call (10 in, 5 out): the outer agent's 2 calls and the forest's 1.
    expect(result).toMatchObject({ llmCalls: 3, ownLlmCalls: 2, liveCalls: 3, replayedCalls: 0 });
    expect(result.usage.totalTokens).toBe(45);
    expect(result.ownUsage.totalTokens).toBe(30);
  });
});
