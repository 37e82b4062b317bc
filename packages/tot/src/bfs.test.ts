import type { SwarmEvent } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { TreeOfThoughts } from './index.js';
import { eventsOf, treeModel } from './test-support.js';

// A is the more promising first step but a dead end; only B leads to the solution B1.
const beamScript = {
  children: { '': ['A', 'B'], A: ['A1', 'A2'], B: ['B1'] },
  scores: { A: 0.9, B: 0.8, A1: 0.1, A2: 0.2, B1: 0.9 },
};

describe('breadth-first search', () => {
  it('finds the solution behind the second-best step when the beam keeps two nodes', async () => {
    const tot = new TreeOfThoughts({ model: treeModel(beamScript), numThoughts: 2, breadth: 2, maxDepth: 2 });
    const answer = await tot.run('Scripted task.');
    expect(answer).toBe('answer from [B > B1]');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['B', 'B1'], nodesExpanded: 3 });
  });

  it('misses it with a beam of one and answers from the best partial path, unsolved', async () => {
    const tot = new TreeOfThoughts({ model: treeModel(beamScript), numThoughts: 2, breadth: 1, maxDepth: 2 });
    const answer = await tot.run('Scripted task.');
    expect(answer).toBe('answer from [A]');
    expect(tot.lastResult).toMatchObject({ solved: false, steps: ['A'], nodesExpanded: 2 });
    expect(tot.lastResult?.bestNode?.content).toBe('A');
  });

  it('stops once its best solution scores at least as high as every open path', async () => {
    const model = treeModel({
      children: { '': ['done', 'maybe'] },
      finals: ['done'],
      scores: { done: 0.9, maybe: 0.8 },
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['done'], nodesExpanded: 1, llmCalls: 4 });
  });

  it('keeps searching while an open path scores higher than its best solution', async () => {
    const model = treeModel({
      children: { '': ['done', 'better'], better: ['best'] },
      finals: ['done'],
      scores: { done: 0.7, better: 0.95, best: 1 },
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2, maxDepth: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['better', 'best'], nodesExpanded: 2 });
  });

  it('never expands nor answers from a pruned step', async () => {
    const events: SwarmEvent[] = [];
    const model = treeModel({
      children: { '': ['weak', 'strong'], strong: ['end'] },
      scores: { weak: 0.4, strong: 0.6 },
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2, maxDepth: 2 });
    await tot.run('Scripted task.', { onEvent: (e) => events.push(e) });
    const weak = tot.lastResult!.root.children.find((c) => c.content === 'weak')!;
    expect(weak).toMatchObject({ pruned: true, score: 0.4, children: [] });
    expect(eventsOf(events, 'tot.prune')).toEqual([
      expect.objectContaining({ nodeId: weak.id, score: 0.4, threshold: 0.5 }),
    ]);
    expect(eventsOf(events, 'tot.expand').map((e) => e.nodeId)).not.toContain(weak.id);
    expect(tot.lastResult?.steps).toEqual(['strong', 'end']);
  });

  it('caps the nodes it expands at maxExpansions and answers from what it has', async () => {
    const model = treeModel({ children: { '': ['a', 'b'], a: ['a1', 'a2'], b: ['b1', 'b2'] } });
    const tot = new TreeOfThoughts({ model, numThoughts: 2, maxExpansions: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ nodesExpanded: 2, solved: false, llmCalls: 2 + 4 + 1 });
  });
});
