import { describe, expect, it } from 'vitest';
import { TreeOfThoughts } from './index.js';
import { treeModel } from './test-support.js';

describe('depth-first search', () => {
  it('backtracks out of a dead end to the next-best branch and returns its first solution', async () => {
    const model = treeModel({
      children: { '': ['A', 'B'], A: ['A1', 'A2'], A1: ['A1x'], B: ['B1', 'B2'], B1: ['B1x'] },
      scores: { A: 0.9, B: 0.7, A1: 0.8, A2: 0.3, A1x: 0.1, B1: 0.9, B2: 0.6, B1x: 0.8 },
    });
    const tot = new TreeOfThoughts({ model, searchAlgorithm: 'dfs', numThoughts: 2, maxDepth: 3 });
    const answer = await tot.run('Scripted task.');
    expect(answer).toBe('answer from [B > B1 > B1x]');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['B', 'B1', 'B1x'], nodesExpanded: 5 });
  });

  it('returns the first solution it reaches even when a later branch might score higher', async () => {
    const model = treeModel({
      children: { '': ['A', 'B'], A: ['A1'], B: ['B1'] },
      finals: ['A1', 'B1'],
      scores: { A: 0.9, B: 0.8, A1: 0.6, B1: 1 },
    });
    const tot = new TreeOfThoughts({ model, searchAlgorithm: 'dfs', numThoughts: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['A', 'A1'], nodesExpanded: 2 });
  });

  it('answers from the best partial path, unsolved, when every branch is pruned', async () => {
    const model = treeModel({
      children: { '': ['A', 'B'], A: ['A1'], B: ['B1'] },
      scores: { A: 0.9, B: 0.6, A1: 0, B1: 0 },
    });
    const tot = new TreeOfThoughts({ model, searchAlgorithm: 'dfs', numThoughts: 2, maxDepth: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: false, steps: ['A'], nodesExpanded: 3 });
  });

  it('on equal scores tries the finished step first', async () => {
    const model = treeModel({
      children: { '': ['go on', 'finish'], 'go on': ['later'] },
      finals: ['finish'],
      scores: { 'go on': 0.8, finish: 0.8 },
    });
    const tot = new TreeOfThoughts({ model, searchAlgorithm: 'dfs', numThoughts: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['finish'], nodesExpanded: 1 });
  });

  it('stops expanding at maxExpansions and answers from the best partial path', async () => {
    const model = treeModel({ children: { '': ['A', 'B'], A: ['A1', 'A2'], A1: ['A1x'] } });
    const tot = new TreeOfThoughts({
      model,
      searchAlgorithm: 'dfs',
      numThoughts: 2,
      maxDepth: 4,
      maxExpansions: 2,
    });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: false, nodesExpanded: 2, steps: ['A', 'A1'] });
    expect(tot.lastResult?.root.children[0]?.children[0]?.children).toEqual([]);
  });
});
