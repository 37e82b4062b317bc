import { Agent, messageText, previewRun } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import {
  TreeOfThoughts,
  type TreeOfThoughtsOptions,
  treeOfThoughtsDescriptor,
  treeOfThoughtsWorstCase,
} from './index.js';
import { candidateCount, candidateIsFinal, functionOf } from './test-support.js';

/**
 * The worst case of the seed's Cost table: the model never flags a step final, every step is
 * distinct, every rating is 1 (every vote is spread evenly). `rejectLeaves` scores the steps at
 * maxDepth 0, which is DFS's worst case: without it DFS stops at its first leaf.
 */
function worstCaseModel(rejectLeaves = false, repairEveryCall = false): ScriptedModel {
  let step = 0;
  return new ScriptedModel([], {
    fallback: respond((request, index) => {
      const name = functionOf(request);
      // A first attempt (one message: the prompt) answered with invalid arguments costs a repair.
      if (repairEveryCall && request.messages.length === 1) return { toolCalls: [{ name, arguments: {} }] };
      switch (name) {
        case 'propose_thoughts': {
          const count = Number(/Propose (\d+) distinct/.exec(messageText(request.messages[0]!))?.[1] ?? 1);
          const thoughts = Array.from({ length: count }, () => ({
            thought: `step ${++step}`,
            isFinal: false,
          }));
          return { toolCalls: [{ name, arguments: { thoughts } }] };
        }
        case 'next_thought':
          return { toolCalls: [{ name, arguments: { thought: `step ${++step}`, isFinal: false } }] };
        case 'rate_thought': {
          const score = rejectLeaves && candidateIsFinal(request) ? 0 : 1;
          return { toolCalls: [{ name, arguments: { critique: 'fine', score } }] };
        }
        case 'vote_thought':
          return {
            toolCalls: [
              { name, arguments: { analysis: 'even', choice: (index % candidateCount(request)) + 1 } },
            ],
          };
        case 'final_answer':
          return { toolCalls: [{ name, arguments: { answer: 'done' } }] };
        default:
          throw new Error(`unexpected ${name}`);
      }
    }),
  });
}

const rows: {
  settings: string;
  options: TreeOfThoughtsOptions;
  nodes: number;
  calls: number;
  rejectLeaves?: boolean;
}[] = [
  { settings: 'Defaults: BFS, propose, value, t=3, b=2, D=3, k=1', options: {}, nodes: 5, calls: 21 },
  {
    settings: 'Number theory: BFS, propose, value, t=3, b=3, D=4, k=2',
    options: { numThoughts: 3, breadth: 3, maxDepth: 4, nEvaluateSamples: 2 },
    nodes: 10,
    calls: 71,
  },
  {
    settings: 'Fermi estimate: BFS, sample, vote, t=3, b=2, D=4, k=3',
    options: {
      generationStrategy: 'sample',
      evaluationStrategy: 'vote',
      numThoughts: 3,
      breadth: 2,
      maxDepth: 4,
      nEvaluateSamples: 3,
    },
    nodes: 7,
    calls: 34,
  },
  {
    settings: 'Knights and knaves: DFS, propose, value, t=2, D=4, k=1',
    options: { searchAlgorithm: 'dfs', numThoughts: 2, maxDepth: 4 },
    nodes: 15,
    calls: 46,
    rejectLeaves: true,
  },
  {
    settings: 'Knights and knaves with maxExpansions=5',
    options: { searchAlgorithm: 'dfs', numThoughts: 2, maxDepth: 4, maxExpansions: 5 },
    nodes: 5,
    calls: 16,
    rejectLeaves: true,
  },
];

describe("the seed's Cost table, as worst cases", () => {
  for (const row of rows) {
    it(`${row.settings}: ${row.nodes} nodes expanded, ${row.calls} calls`, async () => {
      const model = worstCaseModel(row.rejectLeaves);
      const tot = new TreeOfThoughts({ ...row.options, model });
      await tot.run('Worst case.');
      expect(tot.lastResult?.nodesExpanded).toBe(row.nodes);
      expect(tot.lastResult?.llmCalls).toBe(row.calls);
      expect(model.calls).toHaveLength(row.calls);
    });

    it(`${row.settings}: the descriptor's worstCase previews exactly ${row.calls} calls`, () => {
      expect(treeOfThoughtsWorstCase(row.options)).toEqual({ maxCalls: row.calls });
      const agent = new Agent({ name: 'solver', model: worstCaseModel() });
      expect(treeOfThoughtsDescriptor.worstCase!([agent], row.options)).toEqual({ maxCalls: row.calls });
    });
  }

  const beyond: {
    settings: string;
    options: TreeOfThoughtsOptions;
    calls: number;
    rejectLeaves?: boolean;
  }[] = [
    // A beam wider than the thoughts: level 1 has only t nodes, not b.
    {
      settings: 'BFS, t=2, b=4, D=3',
      options: { numThoughts: 2, breadth: 4, maxDepth: 3 },
      calls: 7 * 3 + 1,
    },
    // One candidate per comparison: votes cost nothing.
    {
      settings: 'BFS, sample, vote, t=1, D=3',
      options: { generationStrategy: 'sample', evaluationStrategy: 'vote', numThoughts: 1, maxDepth: 3 },
      calls: 3 + 1,
    },
    {
      settings: 'BFS with maxExpansions=4, t=3, b=3, D=4',
      options: { numThoughts: 3, breadth: 3, maxDepth: 4, maxExpansions: 4 },
      calls: 4 * 4 + 1,
    },
    {
      settings: 'DFS, t=3, D=3, k=2',
      options: { searchAlgorithm: 'dfs', numThoughts: 3, maxDepth: 3, nEvaluateSamples: 2 },
      calls: 13 * 7 + 1,
      rejectLeaves: true,
    },
  ];
  for (const row of beyond) {
    it(`${row.settings}: worstCase ${row.calls} is what the worst run makes`, async () => {
      const model = worstCaseModel(row.rejectLeaves);
      const tot = new TreeOfThoughts({ ...row.options, model });
      await tot.run('Worst case.');
      expect(treeOfThoughtsWorstCase(row.options)).toEqual({ maxCalls: row.calls });
      expect(model.calls).toHaveLength(row.calls);
    });
  }

  it('every repair allowed by agentOptions.maxRepairs doubles each call in the preview and in the run', async () => {
    const options: TreeOfThoughtsOptions = { agentOptions: { maxRepairs: 1 } };
    const model = worstCaseModel(false, true);
    const tot = new TreeOfThoughts({ ...options, model });
    await tot.run('Worst case.');
    expect(treeOfThoughtsWorstCase(options)).toEqual({ maxCalls: 42 });
    expect(model.calls).toHaveLength(42);
  });

  it('programmatic strategies cost no call, and an uncapped deep DFS has no bound', () => {
    expect(
      treeOfThoughtsWorstCase({
        generationStrategy: () => [],
        evaluationStrategy: () => 1,
        answerStrategy: () => 'x',
      }),
    ).toEqual({ maxCalls: 0 });
    const deep = treeOfThoughtsWorstCase({ searchAlgorithm: 'dfs', numThoughts: 10, maxDepth: 40 });
    expect(deep).toEqual({ maxCalls: undefined, reason: expect.stringMatching(/set maxExpansions/) });
    expect(
      treeOfThoughtsWorstCase({ searchAlgorithm: 'dfs', numThoughts: 10, maxDepth: 40, maxExpansions: 3 }),
    ).toEqual({
      maxCalls: 3 * 11 + 1,
    });
  });

  it('previewRun reports a budget too small for the defaults before the run, which the budget then interrupts', async () => {
    const model = worstCaseModel();
    const agent = new Agent({ name: 'solver', model });
    const preview = previewRun(treeOfThoughtsDescriptor, [agent], {}, { maxCalls: 10 });
    expect(preview).toMatchObject({ maxCalls: 21, budgetCalls: 10, fitsBudget: false });
    expect(model.calls).toHaveLength(0);

    const result = await treeOfThoughtsDescriptor
      .create([agent], {})
      .run('Worst case.', { budget: { maxCalls: 10 } });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
  });

  it('DFS with every step scored 1 stops at its first leaf: D nodes expanded', async () => {
    const tot = new TreeOfThoughts({
      model: worstCaseModel(),
      searchAlgorithm: 'dfs',
      numThoughts: 2,
      maxDepth: 4,
    });
    await tot.run('Worst case.');
    expect(tot.lastResult).toMatchObject({ nodesExpanded: 4, llmCalls: 4 + 4 * 2 + 1, solved: true });
  });
});
