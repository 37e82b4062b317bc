import { AbortError, ConfigError, type SwarmEvent } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { GraphWorkflow } from './graph-workflow.js';
import { SequentialWorkflow } from './sequential-workflow.js';
import { callsOf, team } from './test-support.js';

const diamond: [string, string][] = [
  ['plan', 'frontend'],
  ['plan', 'backend'],
  ['frontend', 'review'],
  ['backend', 'review'],
];

describe('GraphWorkflow', () => {
  it('runs a node once its parents are done, ready nodes in parallel, each given its parents’ outputs', async () => {
    const gate = new Gate();
    const { model, byName } = team(['plan', 'frontend', 'backend', 'review'], {
      plan: 'the plan',
      frontend: () => gate.wait().then(() => 'the UI'),
      backend: () => gate.wait().then(() => 'the API'),
      review: 'approved',
    });
    const graph = new GraphWorkflow({ nodes: byName, edges: diamond });
    const running = graph.run('Build a todo app.');
    // Both branches wait at once: they run in parallel, and review has not started.
    await gate.until(2);
    expect(callsOf(model, 'plan')).toHaveLength(1);
    expect(callsOf(model, 'review')).toHaveLength(0);
    gate.open();
    const result = await running;

    expect(callsOf(model, 'frontend')[0]!.messages).toEqual([
      { role: 'user', content: 'Build a todo app.' },
      { role: 'user', name: 'plan', content: 'the plan' },
    ]);
    expect(callsOf(model, 'review')[0]!.messages).toEqual([
      { role: 'user', content: 'Build a todo app.' },
      { role: 'user', name: 'frontend', content: 'the UI' },
      { role: 'user', name: 'backend', content: 'the API' },
    ]);
    expect(result.output).toBe('approved');
    expect(Object.keys(result.nodes)).toEqual(['plan', 'frontend', 'backend', 'review']);
    expect(Object.values(result.nodes).every((n) => n.status === 'done')).toBe(true);
  });

  it('hands on parents in node order whichever finishes first', async () => {
    const gate = new Gate();
    const { model, byName } = team(['a', 'b', 'join'], {
      a: () => gate.wait().then(() => 'slow a'),
      b: 'quick b',
    });
    const running = new GraphWorkflow({
      nodes: byName,
      // Edges in the other order: parents are handed on in node order all the same.
      edges: [
        ['b', 'join'],
        ['a', 'join'],
      ],
    }).run('go');
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    expect(callsOf(model, 'b')).toHaveLength(1);
    gate.open();
    await running;
    expect(callsOf(model, 'join')[0]!.messages.map((m) => m.name)).toEqual([undefined, 'a', 'b']);
  });

  it('answers with every leaf’s output, named by node', async () => {
    const { byName } = team(['root', 'left', 'right'], { root: 'r', left: 'L', right: 'R' });
    const result = await new GraphWorkflow({
      nodes: byName,
      edges: [
        ['root', 'left'],
        ['root', 'right'],
      ],
    }).run('go');
    expect(result.output).toBe('[left]\nL\n\n[right]\nR');
  });

  it('skips everything after a failed node and lets the other branches finish', async () => {
    const { model, byName } = team(['plan', 'frontend', 'backend', 'deploy'], {
      backend: () => {
        throw new Error('backend is down');
      },
      frontend: 'the UI',
    });
    const result = await new GraphWorkflow({
      nodes: byName,
      edges: [
        ['plan', 'frontend'],
        ['plan', 'backend'],
        ['backend', 'deploy'],
      ],
    }).run('go');

    expect(result.nodes).toEqual({
      plan: { agent: 'plan', status: 'done', output: 'plan says: go' },
      frontend: { agent: 'frontend', status: 'done', output: 'the UI' },
      backend: { agent: 'backend', status: 'failed', error: 'backend is down', code: 'MODEL' },
      deploy: { agent: 'deploy', status: 'skipped', reason: 'after the failure of "backend"' },
    });
    expect(callsOf(model, 'deploy')).toHaveLength(0);
    expect(result.output).toBe('the UI');
  });

  it('fails when no leaf could answer', async () => {
    const { byName } = team(['a', 'b'], {
      a: () => {
        throw new Error('a is down');
      },
    });
    await expect(new GraphWorkflow({ nodes: byName, edges: [['a', 'b']] }).run('go')).rejects.toThrow(
      'a is down',
    );
  });

  it('answers from the furthest nodes that answered when the budget stops it, and skips the rest', async () => {
    const { byName } = team(['plan', 'frontend', 'backend', 'review'], { plan: 'the plan' });
    const result = await new GraphWorkflow({ nodes: byName, edges: diamond, maxWorkers: 1 }).run('go', {
      budget: { maxCalls: 2 },
    });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(Object.values(result.nodes).map((n) => n.status)).toEqual(['done', 'done', 'skipped', 'skipped']);
    expect(result.nodes.review).toMatchObject({ status: 'skipped', reason: 'budget:calls' });
    expect(result.output).toBe('frontend says: the plan');
  });

  it('is interrupted when a nested topology answered from part of its work because of the budget', async () => {
    const { byName } = team(['a', 'b']);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.a!, byName.b!] });
    // The graph itself is never refused a call: only the nested panel knows it was cut short.
    const result = await new GraphWorkflow({ nodes: { panel } }).run('go', { budget: { maxCalls: 1 } });

    expect(result).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:calls',
      output: 'a says: go',
    });
    expect(result.nodes.panel).toEqual({ agent: 'panel', status: 'done', output: 'a says: go' });
  });

  it('runs at most maxWorkers nodes at once', async () => {
    const gate = new Gate();
    const { model, byName } = team(['a', 'b', 'c'], {
      a: () => gate.wait().then(() => 'a'),
      b: () => gate.wait().then(() => 'b'),
    });
    const running = new GraphWorkflow({ nodes: byName, maxWorkers: 2 }).run('go');
    await gate.until(2);
    await new Promise((r) => setImmediate(r));
    expect(callsOf(model, 'c')).toHaveLength(0);
    gate.open();
    expect((await running).output).toBe('[a]\na\n\n[b]\nb\n\n[c]\nc says: go');
  });

  it('runs a topology at a node, nested in the graph’s run', async () => {
    const { model, byName } = team(['research', 'draft', 'edit', 'publish'], {
      research: 'facts',
      draft: 'a draft',
      edit: 'an edited draft',
      publish: 'published',
    });
    const writing = new SequentialWorkflow({ name: 'writing', agents: [byName.draft!, byName.edit!] });
    const events: SwarmEvent[] = [];
    const result = await new GraphWorkflow({
      nodes: { research: byName.research!, writing, publish: byName.publish! },
      edges: [
        ['research', 'writing'],
        ['writing', 'publish'],
      ],
    }).run('Write about bees.', { onEvent: (e) => events.push(e) });

    expect(result.nodes.writing).toEqual({ agent: 'writing', status: 'done', output: 'an edited draft' });
    expect(callsOf(model, 'draft')[0]!.messages).toEqual([
      { role: 'user', content: '[user]\nWrite about bees.\n\n[research]\nfacts' },
    ]);
    expect(result.llmCalls).toBe(4);
    const nested = events.find((e) => e.type === 'run.start' && e.topology === 'SequentialWorkflow');
    expect(nested?.path).toEqual(['GraphWorkflow', 'SequentialWorkflow']);
  });

  it('keeps two concurrent runs of one instance apart', async () => {
    const gate = new Gate();
    const { byName } = team(['a', 'b'], {
      a: async (req) => {
        if (req.messages[0]!.content === 'first') await gate.wait();
        return `a on ${req.messages[0]!.content}`;
      },
    });
    const graph = new GraphWorkflow({ nodes: byName, edges: [['a', 'b']] });
    const first = graph.run('first');
    await gate.until(1);
    const second = await graph.run('second');
    gate.open();

    expect(second.output).toBe('b says: a on second');
    expect((await first).output).toBe('b says: a on first');
    expect((await first).nodes.a).toMatchObject({ output: 'a on first' });
  });

  it('rejects with AbortError when aborted while nodes run', async () => {
    const gate = new Gate();
    const { byName } = team(['a', 'b'], {
      a: () => gate.wait().then(() => 'late'),
      b: () => gate.wait().then(() => ''),
    });
    const controller = new AbortController();
    const running = new GraphWorkflow({ nodes: byName }).run('go', { signal: controller.signal });
    await gate.until(2);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });

  it('rejects cycles at construction, naming the cycle', () => {
    const { byName } = team(['a', 'b', 'c']);
    expect(
      () =>
        new GraphWorkflow({
          nodes: byName,
          edges: [
            ['a', 'b'],
            ['b', 'c'],
            ['c', 'a'],
          ],
        }),
    ).toThrow('the edges form a cycle: a -> b -> c -> a');
    expect(() => new GraphWorkflow({ nodes: byName, edges: [['b', 'b']] })).toThrow('cycle: b -> b');
  });

  it('rejects unknown ids, repeated edges and bad nodes at construction', () => {
    const { byName } = team(['a', 'b']);
    expect(() => new GraphWorkflow({ nodes: byName, edges: [['a', 'x']] })).toThrow(
      'edges[0] names an unknown node "x" (nodes: "a", "b")',
    );
    expect(
      () =>
        new GraphWorkflow({
          nodes: byName,
          edges: [
            ['a', 'b'],
            ['a', 'b'],
          ],
        }),
    ).toThrow('edges[1] repeats the edge a -> b');
    expect(() => new GraphWorkflow({ nodes: byName, edges: [['a']] as never })).toThrow(/\[from, to\] pair/);
    expect(() => new GraphWorkflow({ nodes: {} })).toThrow(/at least one node/);
    expect(() => new GraphWorkflow({ nodes: { a: 'agent' } as never })).toThrow(ConfigError);
    expect(() => new GraphWorkflow({ nodes: byName, maxWorkers: 0 })).toThrow(/maxWorkers/);
  });

  it('starts no node after the budget stops the run', async () => {
    const { byName } = team(['a', 'b', 'c']);
    const started: string[] = [];
    const result = await new GraphWorkflow({ nodes: byName, maxWorkers: 1 }).run('go', {
      budget: { maxCalls: 1 },
      onEvent: (e) => e.type === 'agent.start' && started.push(String(e.agent)),
    });

    // b was started and refused; c, ready all along, is never started.
    expect(started).toEqual(['a', 'b']);
    expect(Object.values(result.nodes).map((n) => n.status)).toEqual(['done', 'skipped', 'skipped']);
    expect(result).toMatchObject({ output: 'a says: go', interrupted: true });
  });

  it('starts no node after an abort', async () => {
    const gate = new Gate();
    const { byName } = team(['a', 'b'], { a: () => gate.wait().then(() => 'late') });
    const started: string[] = [];
    const controller = new AbortController();
    const running = new GraphWorkflow({ nodes: byName, maxWorkers: 1 }).run('go', {
      signal: controller.signal,
      onEvent: (e) => e.type === 'agent.start' && started.push(String(e.agent)),
    });
    await gate.until(1);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
    expect(started).toEqual(['a']);
  });

  it("emits graph.node with each node's outcome as it happens", async () => {
    const gate = new Gate();
    const { byName } = team(['a', 'b', 'c'], {
      a: () => {
        throw new Error('a is down');
      },
      c: () => gate.wait().then(() => 'c'),
    });
    const outcomes: unknown[] = [];
    const running = new GraphWorkflow({ nodes: byName, edges: [['a', 'b']] }).run('go', {
      onEvent: (e) => e.type === 'graph.node' && outcomes.push([e.node, e.agent, e.status]),
    });
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    // While c still runs, a's failure and b's skip are already reported.
    expect(outcomes).toEqual([
      ['a', 'a', 'failed'],
      ['b', 'b', 'skipped'],
    ]);
    gate.open();
    await running;
    expect(outcomes.at(-1)).toEqual(['c', 'c', 'done']);
  });
});
