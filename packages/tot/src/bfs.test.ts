import type { SwarmEvent } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { TreeOfThoughts } from './index.js';
import { eventsOf, functionOf, pathOf, promptOf, treeModel } from './test-support.js';

// A is the more promising first step but a dead end; only B leads to the solution B1.
const beamScript = {
  children: { '': ['A', 'B'], A: ['A1', 'A2'], B: ['B1'] },
  scores: { A: 0.9, B: 0.8, A1: 0.1, A2: 0.2, B1: 0.9 },
};

describe('breadth-first search', () => {
  it('finds the solution behind the second-best step when the beam keeps two nodes', async () => {
    const model = treeModel(beamScript);
    const tot = new TreeOfThoughts({ model, numThoughts: 2, breadth: 2, maxDepth: 2 });
    const answer = await tot.run('Scripted task.');
    expect(answer).toBe('answer from [B > B1]');
    const answerCall = model.calls.find((call) => functionOf(call) === 'final_answer')!;
    expect(promptOf(answerCall)).toContain('These steps complete the task');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['B', 'B1'], nodesExpanded: 3 });
  });

  it('misses it with a beam of one and answers from the best partial path, unsolved', async () => {
    const model = treeModel(beamScript);
    const tot = new TreeOfThoughts({ model, numThoughts: 2, breadth: 1, maxDepth: 2 });
    const answer = await tot.run('Scripted task.');
    expect(answer).toBe('answer from [A]');
    const answerCall = model.calls.find((call) => functionOf(call) === 'final_answer')!;
    expect(promptOf(answerCall)).toContain('most promising partial path');
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

  it('stops when its best solution ties the best open path', async () => {
    const model = treeModel({
      children: { '': ['done', 'maybe'], maybe: ['later'] },
      finals: ['done'],
      scores: { done: 0.8, maybe: 0.8 },
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2 });
    await tot.run('Scripted task.');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['done'], nodesExpanded: 1 });
  });

  it('drops duplicates from one parent only: two parents may propose the same step', async () => {
    const model = treeModel({
      children: { '': ['A', 'B'], A: ['same'], B: ['same'] },
      scores: { A: 0.9, B: 0.8 },
    });
    const tot = new TreeOfThoughts({ model, numThoughts: 2, maxDepth: 2 });
    await tot.run('Scripted task.');
    const [a, b] = tot.lastResult!.root.children;
    expect([a?.children.map((c) => c.content), b?.children.map((c) => c.content)]).toEqual([
      ['same'],
      ['same'],
    ]);
  });

  it('expands a level concurrently yet orders its nodes by input, not by which call finished first', async () => {
    // B's call finishes before A's; with every score tied, the beam must still keep A's children.
    let releaseA!: () => void;
    const aMayFinish = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const children: Record<string, string[]> = {
      '': ['A', 'B'],
      A: ['A1', 'A2'],
      B: ['B1', 'B2'],
      A1: ['A1x'],
      A2: ['A2x'],
      B1: ['B1x'],
      B2: ['B2x'],
    };
    let proposing = 0;
    let mostProposing = 0;
    const model = new ScriptedModel([], {
      fallback: respond(async (request) => {
        const name = functionOf(request);
        if (name === 'propose_thoughts') {
          const last = pathOf(request).at(-1) ?? '';
          proposing += 1;
          mostProposing = Math.max(mostProposing, proposing);
          // Run one at a time, A would wait in vain: let it go after a while so the test fails fast.
          if (last === 'A') await Promise.race([aMayFinish, new Promise((r) => setTimeout(r, 200))]);
          if (last === 'B') setImmediate(releaseA);
          proposing -= 1;
          const thoughts = (children[last] ?? []).map((thought) => ({ thought, isFinal: false }));
          return { toolCalls: [{ name, arguments: { thoughts } }] };
        }
        if (name === 'rate_thought')
          return { toolCalls: [{ name, arguments: { critique: '', score: 0.8 } }] };
        return { toolCalls: [{ name, arguments: { answer: pathOf(request).join(' > ') } }] };
      }),
    });
    const events: SwarmEvent[] = [];
    const tot = new TreeOfThoughts({ model, numThoughts: 2, breadth: 2, maxDepth: 3 });
    await tot.run('Scripted task.', { onEvent: (e) => events.push(e) });
    expect(mostProposing).toBe(2);
    const [a, b] = tot.lastResult!.root.children;
    const level2 = [...a!.children, ...b!.children].map((node) => [node.content, node.id]);
    expect(level2).toEqual([
      ['A1', 3],
      ['A2', 4],
      ['B1', 5],
      ['B2', 6],
    ]);
    expect(eventsOf(events, 'tot.expand').map((e) => e.nodeId)).toEqual([0, 1, 2, 3, 4]);
    expect(tot.lastResult?.steps).toEqual(['A', 'A1', 'A1x']);
  });
});
