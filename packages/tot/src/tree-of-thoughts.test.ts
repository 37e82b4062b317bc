import { ConfigError, type SwarmEvent } from '@swarm/core';
import { fail, Gate, object, respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { NoAnswerError, type ThoughtEvaluator, type ThoughtGenerator, TreeOfThoughts } from './index.js';
import { candidateCount, candidateOf, eventsOf, functionOf, treeModel } from './test-support.js';

const thoughts = (...names: string[]) => ({
  thoughts: names.map((thought) => ({ thought, isFinal: false })),
});

describe('TreeOfThoughts: generation', () => {
  it('drops duplicate candidates from one parent (propose)', async () => {
    const events: SwarmEvent[] = [];
    const model = treeModel({ children: { '': ['Add 4 and 9', ' add 4  and 9 ', 'Multiply'] } });
    const tot = new TreeOfThoughts({ model, maxDepth: 1 });
    await tot.run('Task.', { onEvent: (e) => events.push(e) });
    expect(tot.lastResult?.root.children.map((c) => c.content)).toEqual(['Add 4 and 9', 'Multiply']);
    expect(eventsOf(events, 'tot.expand')[0]).toMatchObject({ nodeId: 0, duplicates: 1 });
    // Two candidates, two ratings: the duplicate is never evaluated.
    expect(tot.lastResult?.llmCalls).toBe(1 + 2 + 1);
  });

  it('drops duplicate samples (sample: one call per step)', async () => {
    const model = new ScriptedModel([
      object({ thought: 'x', isFinal: true }),
      object({ thought: 'x', isFinal: true }),
      object({ thought: 'y', isFinal: true }),
      object({ critique: 'ok', score: 1 }),
      object({ critique: 'ok', score: 0.8 }),
      object({ answer: 'x' }),
    ]);
    const tot = new TreeOfThoughts({ model, generationStrategy: 'sample' });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children.map((c) => c.content)).toEqual(['x', 'y']);
    model.assertComplete();
  });

  it('makes a step at maxDepth final even when the model did not flag it', async () => {
    const tot = new TreeOfThoughts({ model: treeModel({ children: { '': ['only'] } }), maxDepth: 1 });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children[0]).toMatchObject({ isFinal: true, depth: 1 });
    expect(tot.lastResult?.solved).toBe(true);
  });
});

describe('TreeOfThoughts: evaluation', () => {
  it('averages nEvaluateSamples ratings, asking for the critique before the score', async () => {
    const model = new ScriptedModel([
      object(thoughts('a')),
      object({ critique: 'good', score: 1 }),
      object({ critique: 'meh', score: 0.5 }),
      object({ answer: 'a' }),
    ]);
    const tot = new TreeOfThoughts({ model, maxDepth: 1, nEvaluateSamples: 2 });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children[0]).toMatchObject({ score: 0.75, evaluation: 'good\n---\nmeh' });
    const parameters = model.calls[1]!.tools![0]!.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(parameters.properties)).toEqual(['critique', 'score']);
  });

  it('scores votes as votes divided by the leader’s votes', async () => {
    const model = new ScriptedModel([
      object(thoughts('a', 'b', 'c')),
      object({ analysis: '', choice: 1 }),
      object({ analysis: '', choice: 1 }),
      object({ analysis: '', choice: 2 }),
      object({ analysis: '', choice: 1 }),
      object({ answer: 'a' }),
    ]);
    const tot = new TreeOfThoughts({ model, evaluationStrategy: 'vote', nEvaluateSamples: 4, maxDepth: 1 });
    await tot.run('Task.');
    const [a, b, c] = tot.lastResult!.root.children;
    expect([a?.score, b?.score, c?.score]).toEqual([1, 1 / 3, 0]);
    expect(a?.evaluation).toBe('3 of 4 votes (leader: 3).');
    expect([a?.pruned, b?.pruned, c?.pruned]).toEqual([false, true, true]);
    model.assertComplete();
  });

  it('BFS compares every candidate of a level in one vote', async () => {
    const model = new ScriptedModel([], {
      fallback: respond((request, index) => {
        const name = functionOf(request);
        if (name === 'propose_thoughts')
          return { toolCalls: [{ name, arguments: thoughts(`p${index}`, `q${index}`) }] };
        if (name === 'vote_thought') {
          return {
            toolCalls: [{ name, arguments: { analysis: '', choice: (index % candidateCount(request)) + 1 } }],
          };
        }
        return { toolCalls: [{ name, arguments: { answer: 'done' } }] };
      }),
    });
    const tot = new TreeOfThoughts({
      model,
      evaluationStrategy: 'vote',
      nEvaluateSamples: 2,
      breadth: 2,
      maxDepth: 2,
    });
    await tot.run('Task.');
    const votes = model.calls.filter((c) => functionOf(c) === 'vote_thought');
    // Level 1: one comparison of its 2 candidates; level 2: one comparison of all 4 (2 per parent), not one per parent.
    expect(votes.map(candidateCount)).toEqual([2, 2, 4, 4]);
  });

  it('gives a lone candidate a score of 1 without a vote call', async () => {
    const model = new ScriptedModel([object(thoughts('alone')), object({ answer: 'alone' })]);
    const tot = new TreeOfThoughts({ model, evaluationStrategy: 'vote', maxDepth: 1 });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children[0]?.score).toBe(1);
    expect(tot.lastResult?.llmCalls).toBe(2);
    model.assertComplete();
  });
});

describe('TreeOfThoughts: failures cost one candidate', () => {
  it('averages only the ratings that came back: a failed one is left out, not counted as 0', async () => {
    const model = new ScriptedModel([
      object(thoughts('a')),
      fail(new Error('provider down')),
      object({ critique: 'fine', score: 0.8 }),
      object({ answer: 'a' }),
    ]);
    const tot = new TreeOfThoughts({ model, maxDepth: 1, nEvaluateSamples: 2, maxWorkers: 1 });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children[0]).toMatchObject({ score: 0.8, evaluation: 'fine', pruned: false });
    expect(tot.lastResult).toMatchObject({ solved: true, llmCalls: 4 });
  });

  it('a failed rating scores only its candidate 0, with a warning', async () => {
    const events: SwarmEvent[] = [];
    const model = new ScriptedModel([], {
      fallback: respond((request) => {
        const name = functionOf(request);
        if (name === 'propose_thoughts') return { toolCalls: [{ name, arguments: thoughts('a', 'b', 'c') }] };
        if (name === 'rate_thought') {
          if (candidateOf(request) === 'b') throw new Error('provider down');
          return { toolCalls: [{ name, arguments: { critique: 'ok', score: 0.9 } }] };
        }
        return { toolCalls: [{ name, arguments: { answer: 'done' } }] };
      }),
    });
    const tot = new TreeOfThoughts({ model, maxDepth: 1 });
    await tot.run('Task.', { onEvent: (e) => events.push(e) });
    const scores = tot.lastResult!.root.children.map((c) => [c.content, c.score, c.pruned]);
    expect(scores).toEqual([
      ['a', 0.9, false],
      ['b', 0, true],
      ['c', 0.9, false],
    ]);
    expect(eventsOf(events, 'warning')).toEqual([
      expect.objectContaining({ phase: 'evaluate', message: expect.stringContaining('provider down') }),
    ]);
    expect(tot.lastResult?.llmCalls).toBe(5);
  });

  it('an invalid function call is one failed call (no repairs) and loses only that sample', async () => {
    const model = new ScriptedModel([
      object({ thought: 'x', isFinal: true }),
      object({ wrong: true }),
      fail(new Error('timeout')),
      object({ critique: 'ok', score: 1 }),
      object({ answer: 'x' }),
    ]);
    const tot = new TreeOfThoughts({ model, generationStrategy: 'sample' });
    await tot.run('Task.');
    expect(tot.lastResult?.root.children.map((c) => c.content)).toEqual(['x']);
    expect(tot.lastResult?.llmCalls).toBe(5);
    model.assertComplete();
  });
});

describe('TreeOfThoughts: concurrency', () => {
  /** Lets every pending call reach its gate. */
  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  };

  it('runs the calls of one level concurrently, at most maxWorkers at a time', async () => {
    const gates: Record<string, Gate> = {
      next_thought: new Gate(),
      rate_thought: new Gate(),
      final_answer: new Gate(),
    };
    let sampled = 0;
    const model = new ScriptedModel([], {
      fallback: respond(async (request) => {
        const name = functionOf(request);
        await gates[name]!.wait();
        if (name === 'next_thought')
          return { toolCalls: [{ name, arguments: { thought: `s${++sampled}`, isFinal: true } }] };
        if (name === 'rate_thought') return { toolCalls: [{ name, arguments: { critique: '', score: 1 } }] };
        return { toolCalls: [{ name, arguments: { answer: 'a' } }] };
      }),
    });
    const tot = new TreeOfThoughts({ model, generationStrategy: 'sample', numThoughts: 5, maxWorkers: 2 });
    const done = tot.run('Task.');
    // The five samples: two in flight, three waiting for a worker.
    await settle();
    expect(gates.next_thought!.waiting).toBe(2);
    expect(model.calls).toHaveLength(2);
    gates.next_thought!.open();
    // The five ratings: two in flight too, so they are concurrent and capped alike.
    await settle();
    expect(gates.rate_thought!.waiting).toBe(2);
    expect(model.calls).toHaveLength(5 + 2);
    gates.rate_thought!.open();
    gates.final_answer!.open();
    await done;
    expect(tot.lastResult?.llmCalls).toBe(5 + 5 + 1);
  });

  it('runs every call of a level at once by default', async () => {
    const gate = new Gate();
    let sampled = 0;
    const model = new ScriptedModel([], {
      fallback: respond(async (request) => {
        const name = functionOf(request);
        if (name === 'next_thought') {
          await gate.wait();
          return { toolCalls: [{ name, arguments: { thought: `s${++sampled}`, isFinal: true } }] };
        }
        if (name === 'rate_thought') return { toolCalls: [{ name, arguments: { critique: '', score: 1 } }] };
        return { toolCalls: [{ name, arguments: { answer: 'a' } }] };
      }),
    });
    const done = new TreeOfThoughts({ model, generationStrategy: 'sample', numThoughts: 10 }).run('Task.');
    await settle();
    expect(gate.waiting).toBe(10);
    gate.open();
    await done;
    expect(model.calls).toHaveLength(10 + 10 + 1);
  });

  it('returns each concurrent run its own answer', async () => {
    const gate = new Gate();
    const tot = new TreeOfThoughts({
      generationStrategy: () => [{ content: 'step', isFinal: true }],
      evaluationStrategy: () => 1,
      answerStrategy: async ({ task }) => {
        await gate.wait();
        return `answer to ${task}`;
      },
    });
    const first = tot.run('first');
    const second = tot.run('second');
    await settle();
    gate.open();
    expect(await Promise.all([first, second])).toEqual(['answer to first', 'answer to second']);
  });
});

describe('TreeOfThoughts: programmatic strategies', () => {
  it('searches with a generator and evaluator function, and writes the answer with a function: no model call', async () => {
    const generator: ThoughtGenerator = ({ steps, depth }) => [
      { content: `${steps.join('')}L`, isFinal: depth === 2 },
      { content: `${steps.join('')}R`, isFinal: depth === 2 },
    ];
    const evaluator: ThoughtEvaluator = ({ content }) => ({
      score: content.endsWith('R') ? 1 : 0.2,
      evaluation: 'rule',
    });
    const tot = new TreeOfThoughts({
      model: new ScriptedModel(),
      generationStrategy: generator,
      evaluationStrategy: evaluator,
      answerStrategy: ({ steps }) => steps.at(-1) ?? '',
      maxDepth: 2,
    });
    expect(await tot.run('Go right.')).toBe('RR');
    expect(tot.lastResult).toMatchObject({ solved: true, steps: ['R', 'RR'], llmCalls: 0 });
  });

  it('treats a throwing generator or an out-of-range rating as one failed call', async () => {
    const events: SwarmEvent[] = [];
    const tot = new TreeOfThoughts({
      model: new ScriptedModel(),
      generationStrategy: ({ steps }) => {
        if (steps.length === 0) return ['a', 'b', 'c'].map((content) => ({ content, isFinal: false }));
        if (steps[0] === 'b') throw new Error('no move after b');
        return [{ content: `${steps[0]}1`, isFinal: true }];
      },
      evaluationStrategy: ({ content }) => (content === 'a' ? 7 : 0.9),
      answerStrategy: ({ steps }) => steps.join(' > '),
      breadth: 3,
      maxDepth: 2,
    });
    expect(await tot.run('Task.', { onEvent: (e) => events.push(e) })).toBe('c > c1');
    const [a, b] = tot.lastResult!.root.children;
    expect(a).toMatchObject({ score: 0, pruned: true, children: [] });
    expect(b).toMatchObject({ score: 0.9, pruned: false, children: [] });
    expect(eventsOf(events, 'warning')).toEqual([
      expect.objectContaining({ phase: 'evaluate', nodeId: a!.id, message: expect.stringContaining('7') }),
      expect.objectContaining({
        phase: 'generate',
        nodeId: b!.id,
        message: expect.stringContaining('no move after b'),
      }),
    ]);
  });

  it('treats a generator output that is not a list of steps as one failed call', async () => {
    const events: SwarmEvent[] = [];
    const tot = new TreeOfThoughts({
      generationStrategy: (() => ({ content: 'not a list', isFinal: true })) as unknown as ThoughtGenerator,
      evaluationStrategy: () => 1,
      answerStrategy: () => 'nothing found',
    });
    expect(await tot.run('Task.', { onEvent: (e) => events.push(e) })).toBe('nothing found');
    expect(tot.lastResult).toMatchObject({ solved: false, nodesExpanded: 1, bestNode: null });
    expect(eventsOf(events, 'warning')).toEqual([expect.objectContaining({ phase: 'generate', nodeId: 0 })]);
  });
});

describe('TreeOfThoughts: result and answer', () => {
  it('fills lastResult, serializes the whole tree without parents, and sums usage over runs', async () => {
    const tot = new TreeOfThoughts({
      model: treeModel({ children: { '': ['a', 'b'], a: ['a1'], b: ['b1'] } }),
      numThoughts: 2,
      maxDepth: 2,
    });
    expect(tot.lastResult).toBeNull();
    await tot.run('Task.');
    const result = tot.lastResult!;
    expect(result).toMatchObject({ task: 'Task.', solved: true, interrupted: false, output: result.answer });
    expect(result.usage.totalTokens).toBe(result.llmCalls * 15);
    const json = JSON.parse(JSON.stringify(result));
    expect(json.tree.children.map((c: { content: string }) => c.content)).toEqual(['a', 'b']);
    expect(json.tree.children[0]).not.toHaveProperty('parent');
    expect(json.tree.children[0].children[0].steps).toEqual(['a', 'a1']);
    expect(json.bestNode).toMatchObject({ content: result.bestNode?.content });
    await tot.run('Again.');
    expect(tot.usage.totalTokens).toBe(2 * result.usage.totalTokens);
    tot.usage.totalTokens = 0;
    expect(tot.usage.totalTokens).toBe(2 * result.usage.totalTokens);
  });

  it('emits tot.expand, tot.evaluate, tot.prune and tot.solution events stamped with the topology', async () => {
    const events: SwarmEvent[] = [];
    const model = treeModel({ children: { '': ['yes', 'no'] }, finals: ['yes'], scores: { no: 0 } });
    await new TreeOfThoughts({ model, numThoughts: 2 }).run('Task.', { onEvent: (e) => events.push(e) });
    const types = events.filter((e) => e.type.startsWith('tot.')).map((e) => e.type);
    expect(types).toEqual(['tot.expand', 'tot.evaluate', 'tot.solution', 'tot.evaluate', 'tot.prune']);
    expect(events.every((e) => e.topology === 'TreeOfThoughts')).toBe(true);
  });

  it('formats the conversation by outputType: task, reasoning path, answer', async () => {
    const tot = new TreeOfThoughts({
      model: treeModel({ children: { '': ['step'] } }),
      maxDepth: 1,
      outputType: 'list',
      name: 'ToT',
    });
    const lines: string[] = await tot.run('Task.');
    expect(lines).toEqual(['user: Task.', 'ToT: step', 'ToT: answer from [step]']);
  });

  it('answers from the solution’s own step when the answer call fails', async () => {
    const model = new ScriptedModel([
      object(thoughts('the end')),
      object({ critique: '', score: 1 }),
      fail(),
    ]);
    const tot = new TreeOfThoughts({ model, maxDepth: 1 });
    expect(await tot.run('Task.')).toBe('the end');
    expect(tot.lastResult?.llmCalls).toBe(3);
  });

  it('throws NoAnswerError when there is no solution and the answer call fails', async () => {
    const model = new ScriptedModel([
      object(thoughts('bad')),
      object({ critique: '', score: 0 }),
      object({ nope: 1 }),
    ]);
    const tot = new TreeOfThoughts({ model, maxDepth: 1 });
    const events: SwarmEvent[] = [];
    const error = await tot.run('Task.', { onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(events.at(-1)).toMatchObject({ type: 'run.error', code: 'NO_ANSWER' });
    expect(error).toMatchObject({ code: 'NO_ANSWER', cause: { code: 'STRUCTURED_OUTPUT' } });
    expect((error as NoAnswerError).root.children[0]?.content).toBe('bad');
  });

  it('rejects an empty task with a ConfigError before any call', async () => {
    const model = new ScriptedModel();
    await expect(new TreeOfThoughts({ model }).run('  ')).rejects.toBeInstanceOf(ConfigError);
    expect(model.calls).toHaveLength(0);
  });

  it('is usable as a Topology: run returns the whole result, stream yields its events', async () => {
    const topology = new TreeOfThoughts({
      model: treeModel({ children: { '': ['x'] } }),
      maxDepth: 1,
    }).asTopology();
    const stream = topology.stream('Task.');
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result;
    expect(result).toMatchObject({ output: 'answer from [x]', solved: true, llmCalls: 3 });
    expect(types).toContain('tot.solution');
    expect((await topology.run('Task.')).answer).toBe('answer from [x]');
  });
});

describe('TreeOfThoughts: budget', () => {
  it('stops searching when only the answer call is left in the budget, and answers, interrupted', async () => {
    const model = treeModel({
      children: { '': ['a', 'b', 'c'], a: ['a1', 'a2', 'a3'], b: ['b1', 'b2', 'b3'] },
    });
    const tot = new TreeOfThoughts({ model });
    const answer = await tot.run('Task.', { budget: { maxCalls: 8 } });
    expect(answer).toMatch(/^answer from/);
    expect(tot.lastResult).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:calls',
      llmCalls: 8,
      solved: false,
    });
  });

  it('does not count a node as expanded when the budget refused its generation call', async () => {
    const model = treeModel({ children: { '': ['a', 'b', 'c'], a: ['a1'], b: ['b1'] } });
    const tot = new TreeOfThoughts({ model });
    // Root generation and its three ratings take four calls; the fifth is kept for the answer, so
    // the expansions of a and b are refused before any call is made.
    await tot.run('Task.', { budget: { maxCalls: 5 } });
    expect(tot.lastResult).toMatchObject({ nodesExpanded: 1, llmCalls: 5, interrupted: true });
  });

  it('rethrows the budget error when even the answer call cannot be afforded', async () => {
    const model = treeModel({ children: { '': ['a', 'b'] } });
    const tot = new TreeOfThoughts({ model, numThoughts: 2 });
    await expect(tot.run('Task.', { budget: { maxTokens: 10 } })).rejects.toMatchObject({
      code: 'BUDGET_EXCEEDED',
      reason: 'budget:tokens',
    });
  });
});
