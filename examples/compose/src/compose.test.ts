import { Agent, BudgetExceededError, type SwarmEvent } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { Team } from '@swarm/handoff';
import { describe, expect, it } from 'vitest';
import { buildHelpdesk } from './helpdesk.js';
import { traceTree } from './trace-tree.js';

const puzzle = 'Use 4, 9, 10 and 13 with + - * / to make 24.';

function scripted() {
  return {
    triage: new ScriptedModel([
      toolCall('ask_experts', { task: 'make 24 from 4 9 10 13' }),
      reply('(10-4)*(13-9)'),
    ]),
    taxExpert: new ScriptedModel([]),
    puzzleSolver: new ScriptedModel([
      toolCall('solve_24', { task: puzzle }),
      reply('(10 - 4) * (13 - 9) = 24'),
    ]),
  };
}

describe('a forest as a tool inside a handoff team, a Tree of Thoughts inside a forest agent', () => {
  it('answers through all three and keeps one trace whose runs nest by parentRunId', async () => {
    const models = scripted();
    const { team } = buildHelpdesk(models);
    const events: SwarmEvent[] = [];
    const result = await team.run('How do I make 24 from 4, 9, 10 and 13?', {
      onEvent: (e) => events.push(e),
    });

    expect(result.output).toBe('(10-4)*(13-9)');
    const starts = events.filter((e) => e.type === 'run.start');
    expect(starts.map((e) => e.topology)).toEqual(['Swarm', 'ForestSwarm', 'TreeOfThoughts']);
    const [swarm, forest, tot] = starts;
    expect(swarm?.parentRunId).toBeUndefined();
    expect(forest?.parentRunId).toBe(swarm?.runId);
    expect(tot?.parentRunId).toBe(forest?.runId);
    expect(tot?.path).toEqual(['Swarm', 'ForestSwarm', 'TreeOfThoughts']);
    // Every event of a nested run reached the outer listener stamped with its parent.
    for (const event of events.filter((e) => e.runId === tot?.runId))
      expect(event.parentRunId).toBe(forest?.runId);
    expect(events.some((e) => e.type === 'forest.route' && e.agent === 'Puzzle Solver')).toBe(true);
    expect(
      traceTree(events)
        .split('\n')
        .map((l) => l.trim().split(' ')[0]),
    ).toEqual(['Swarm', 'ForestSwarm', 'TreeOfThoughts']);
  });

  it('adds every nested call and token to the outer result exactly', async () => {
    const models = scripted();
    const { team } = buildHelpdesk(models);
    const result = await team.run('make 24');
    const calls = models.triage.calls.length + models.puzzleSolver.calls.length;
    expect(result.llmCalls).toBe(calls);
    expect(result.llmCalls).toBe(4);
    expect(result.usage.totalTokens).toBe(4 * 15);
  });

  it('holds the outer budget across the nested runs: maxCalls 2 stops the third call', async () => {
    const models = scripted();
    const { team } = buildHelpdesk(models);
    const run = team.run('make 24', { budget: { maxCalls: 2 } });
    // triage's call and the puzzle solver's first call are made; the solver's second is refused.
    await expect(run).rejects.toBeInstanceOf(BudgetExceededError);
    expect(models.triage.calls.length + models.puzzleSolver.calls.length).toBe(2);
  });
});

describe('the budget case from the composition issue', () => {
  it("stops at the outer budget of 2 calls when a forest tool's call is the second", async () => {
    const expert = new ScriptedModel([reply('File form 1120.')]);
    const forest = new ForestSwarm({
      name: 'finance',
      trees: [
        new Tree({
          name: 'Tax',
          agents: [
            new TreeAgent({ name: 'Tax Expert', systemPrompt: 'Corporate tax filing.', model: expert }),
          ],
        }),
      ],
    });
    const lead = new ScriptedModel([
      toolCall('ask_finance', { task: 'How do I file corporate taxes?' }),
      reply('Use form 1120.'),
    ]);
    const triage = new Agent({
      name: 'triage',
      model: lead,
      tools: [forest.asTool({ name: 'ask_finance' })],
    });
    const team = Team.swarm({ agents: { triage }, entryAgent: 'triage' });

    await expect(team.run('Taxes?', { budget: { maxCalls: 2 } })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(lead.calls.length + expert.calls.length).toBe(2);

    const unlimited = new ScriptedModel([
      toolCall('ask_finance', { task: 'How do I file corporate taxes?' }),
      reply('Use form 1120.'),
    ]);
    const expert2 = new ScriptedModel([
      reply('File form 1120.', { usage: { inputTokens: 100, outputTokens: 1 } }),
    ]);
    const forest2 = new ForestSwarm({
      name: 'finance',
      trees: [
        new Tree({
          name: 'Tax',
          agents: [
            new TreeAgent({ name: 'Tax Expert', systemPrompt: 'Corporate tax filing.', model: expert2 }),
          ],
        }),
      ],
    });
    const team2 = Team.swarm({
      agents: {
        triage: new Agent({
          name: 'triage',
          model: unlimited,
          tools: [forest2.asTool({ name: 'ask_finance' })],
        }),
      },
      entryAgent: 'triage',
    });
    const result = await team2.run('Taxes?');
    expect(result.llmCalls).toBe(3);
    expect(result.usage.inputTokens).toBe(10 + 10 + 100);
  });
});
