import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { TreeOfThoughts, type TreeOfThoughtsOptions } from './index.js';
import { candidateCount, candidateIsFinal, functionOf } from './test-support.js';

/**
 * The worst case of the seed's Cost table: the model never flags a step final, every step is
 * distinct, every rating is 1 (every vote is spread evenly). `rejectLeaves` scores the steps at
 * maxDepth 0, which is DFS's worst case: without it DFS stops at its first leaf.
 */
function worstCaseModel(rejectLeaves = false): ScriptedModel {
  let step = 0;
  return new ScriptedModel([], {
    fallback: respond((request, index) => {
      const name = functionOf(request);
      switch (name) {
        case 'propose_thoughts': {
          const count = Number(/Propose (\d+) distinct/.exec(request.messages[0]!.content)?.[1] ?? 1);
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
  }

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
