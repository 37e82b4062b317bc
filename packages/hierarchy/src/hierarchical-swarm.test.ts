import { Agent, ConfigError, type SwarmEvent } from '@swarm/core';
import { fail, Gate, reply, respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { HierarchicalSwarm } from './hierarchical-swarm.js';
import { headModel, seen, steadyWorker, worker } from './hierarchy.fixture.js';

const order = (id: string, agentName: string, task: string, dependsOn?: string[]) => ({
  id,
  agentName,
  task,
  ...(dependsOn && { dependsOn }),
});

describe('HierarchicalSwarm', () => {
  it('runs independent orders together and a dependent order after them, with their outputs as typed turns', async () => {
    const gate = new Gate();
    const gated = (name: string) =>
      worker(
        name,
        respond(async () => {
          await gate.wait();
          return `${name} findings`;
        }),
      );
    const research = gated('research');
    const market = gated('market');
    const writer = steadyWorker('writer', 'the report');
    const director = headModel({
      director: [
        {
          plan: 'Research, size the market, then write.',
          orders: [
            order('o1', 'research', 'Find the facts.'),
            order('o2', 'market', 'Size the market.'),
            order('o3', 'writer', 'Write the report.', ['o1', 'o2']),
          ],
          done: false,
        },
      ],
      final: ['Final: the report, checked.'],
    });
    const swarm = new HierarchicalSwarm({
      director,
      agents: [research.agent, market.agent, writer.agent],
    });

    const events: SwarmEvent[] = [];
    const running = swarm.run('Should we enter the EV charger market?', { onEvent: (e) => events.push(e) });
    await gate.until(2);
    expect(writer.model.calls).toHaveLength(0);
    gate.open();
    const result = await running;

    expect(result.output).toBe('Final: the report, checked.');
    expect(result.loops[0]!.orders.map((o) => [o.id, o.status, o.output, o.attempts])).toEqual([
      ['o1', 'done', 'research findings', 1],
      ['o2', 'done', 'market findings', 1],
      ['o3', 'done', 'the report', 1],
    ]);
    const writerInput = writer.model.lastCall!.messages;
    expect(writerInput).toEqual([
      { role: 'user', content: 'Should we enter the EV charger market?' },
      { role: 'user', name: 'director', content: 'Plan: Research, size the market, then write.' },
      { role: 'user', name: 'research', content: 'Output of order o1 (Find the facts.):\nresearch findings' },
      { role: 'user', name: 'market', content: 'Output of order o2 (Size the market.):\nmarket findings' },
      { role: 'user', name: 'director', content: 'Your order (o3): Write the report.' },
    ]);
    expect(seen(research.model.lastCall)).not.toContain('Size the market');
    expect(
      events.filter((e) => e.type.startsWith('hierarchy.')).map((e) => `${e.type}${e.id ? ` ${e.id}` : ''}`),
    ).toEqual([
      'hierarchy.plan',
      'hierarchy.order.start o1',
      'hierarchy.order.start o2',
      'hierarchy.order.end o1',
      'hierarchy.order.end o2',
      'hierarchy.order.start o3',
      'hierarchy.order.end o3',
    ]);
    expect(seen(director.lastCall)).toContain('user(writer): Order o3: Write the report.\n\nthe report');
  });

  it('keeps at most maxWorkers orders in flight', async () => {
    const gate = new Gate();
    const gated = (name: string) =>
      worker(
        name,
        respond(async () => {
          await gate.wait();
          return name;
        }),
      );
    const workers = ['a', 'b', 'c'].map(gated);
    const director = headModel({
      director: [{ plan: 'p', orders: ['a', 'b', 'c'].map((n) => order(n, n, `do ${n}`)), done: false }],
      final: ['done'],
    });
    const swarm = new HierarchicalSwarm({ director, agents: workers.map((w) => w.agent), maxWorkers: 2 });

    const running = swarm.run('task');
    await gate.until(2);
    await new Promise((r) => setImmediate(r));
    expect(gate.waiting).toBe(2);
    expect(workers[2]!.model.calls).toHaveLength(0);
    gate.open();
    await running;
    expect(workers[2]!.model.calls).toHaveLength(1);
  });

  it('with parallel: false runs the orders one by one in the order given', async () => {
    const started: string[] = [];
    const tracked = (name: string) =>
      worker(
        name,
        respond(() => {
          started.push(name);
          return name;
        }),
      );
    const [a, b, c] = ['a', 'b', 'c'].map(tracked);
    const director = headModel({
      director: [
        {
          plan: 'p',
          orders: [order('1', 'c', 'x'), order('2', 'a', 'y'), order('3', 'b', 'z')],
          done: false,
        },
      ],
      final: ['done'],
    });
    await new HierarchicalSwarm({ director, agents: [a!.agent, b!.agent, c!.agent], parallel: false }).run(
      'task',
    );
    expect(started).toEqual(['c', 'a', 'b']);
  });

  it('with parallel: false never has two orders in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const tracked = (name: string) =>
      worker(
        name,
        respond(async () => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight -= 1;
          return name;
        }),
      );
    const [a, b] = ['a', 'b'].map(tracked);
    const director = headModel({
      director: [{ plan: 'p', orders: [order('1', 'a', 'x'), order('2', 'b', 'y')], done: false }],
      final: ['done'],
    });
    await new HierarchicalSwarm({ director, agents: [a!.agent, b!.agent], parallel: false }).run('task');
    expect(peak).toBe(1);
  });

  it('shows a worker its own earlier output as its own (assistant) turn', async () => {
    const writer = steadyWorker('writer', 'first draft');
    const director = headModel({
      director: [
        {
          plan: 'p',
          orders: [order('o1', 'writer', 'Draft.'), order('o2', 'writer', 'Polish.', ['o1'])],
          done: false,
        },
      ],
      final: ['answer'],
    });
    await new HierarchicalSwarm({ director, agents: [writer.agent] }).run('task');
    expect(writer.model.lastCall!.messages).toContainEqual({
      role: 'assistant',
      content: 'Output of order o1 (Draft.):\nfirst draft',
    });
  });

  it('sends an order for an unknown agent back to the director, and never runs it', async () => {
    const writer = steadyWorker('writer');
    const director = headModel({
      director: [
        { plan: 'p', orders: [order('o1', 'ghostwriter', 'Write.')], done: false },
        { plan: 'p', orders: [order('o1', 'writer', 'Write.')], done: false },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [writer.agent] }).run('task');

    const repair = director.calls[1]!.messages.at(-1)!;
    expect(repair.role).toBe('tool');
    expect(repair.content).toMatch(/Invalid arguments: orders\.0\.agentName: .*"writer"/);
    expect(result.loops[0]!.orders.map((o) => o.agentName)).toEqual(['writer']);
    expect(writer.model.calls).toHaveLength(1);
  });

  it('sends unknown dependency ids and cycles back for repair', async () => {
    const writer = steadyWorker('writer');
    const director = headModel({
      director: [
        { plan: 'p', orders: [order('o1', 'writer', 'a', ['o9'])], done: false },
        {
          plan: 'p',
          orders: [order('o1', 'writer', 'a', ['o2']), order('o2', 'writer', 'b', ['o1'])],
          done: false,
        },
        { plan: 'p', orders: [order('o1', 'writer', 'a'), order('o2', 'writer', 'b', ['o1'])], done: false },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [writer.agent] }).run('task');

    expect(director.calls[1]!.messages.at(-1)!.content).toContain(
      '"o1" depends on "o9", which is not an id of this plan',
    );
    expect(director.calls[2]!.messages.at(-1)!.content).toContain(
      'the dependencies form a cycle: o1 -> o2 -> o1',
    );
    expect(result.loops[0]!.orders.map((o) => o.status)).toEqual(['done', 'done']);
  });

  it('retries a failing worker, records it failed with its siblings kept, and shows the failure to the director next loop', async () => {
    const flaky = worker('flaky', fail(new Error('tool crashed')), fail(new Error('tool crashed again')));
    const steady = steadyWorker('steady', 'steady output');
    const director = headModel({
      director: [
        { plan: 'p1', orders: [order('o1', 'flaky', 'x'), order('o2', 'steady', 'y')], done: false },
        { plan: 'p2', orders: [], done: true },
      ],
      final: ['answer'],
    });
    const events: SwarmEvent[] = [];
    const result = await new HierarchicalSwarm({
      director,
      agents: [flaky.agent, steady.agent],
      maxLoops: 2,
    }).run('task', { onEvent: (e) => events.push(e) });

    expect(flaky.model.calls).toHaveLength(2);
    expect(result.loops[0]!.orders).toEqual([
      {
        id: 'o1',
        agentName: 'flaky',
        task: 'x',
        dependsOn: [],
        status: 'failed',
        error: 'tool crashed again',
        attempts: 2,
      },
      {
        id: 'o2',
        agentName: 'steady',
        task: 'y',
        dependsOn: [],
        status: 'done',
        output: 'steady output',
        attempts: 1,
      },
    ]);
    expect(seen(director.calls[1])).toContain(
      'user(flaky): Order o1: x\n\nFAILED after 2 attempt(s): tool crashed again',
    );
    expect(
      events.filter((e) => e.type === 'hierarchy.order.start' && e.id === 'o1').map((e) => e.attempt),
    ).toEqual([1, 2]);
    expect(events.find((e) => e.type === 'hierarchy.order.end' && e.id === 'o1')).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: 'tool crashed again',
    });
  });

  it('fails the orders that depend on a failed order without running them', async () => {
    const broken = worker('broken', fail(), fail());
    const writer = steadyWorker('writer');
    const director = headModel({
      director: [
        { plan: 'p', orders: [order('o1', 'broken', 'x'), order('o2', 'writer', 'y', ['o1'])], done: false },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [broken.agent, writer.agent] }).run(
      'task',
    );
    expect(result.loops[0]!.orders[1]).toMatchObject({
      status: 'failed',
      attempts: 0,
      error: 'not run: it depends on order "o1", which failed',
    });
    expect(writer.model.calls).toHaveLength(0);
  });

  it('stops early when the director answers done, and sees the last results on the second loop', async () => {
    const writer = steadyWorker('writer', 'draft one');
    const director = headModel({
      director: [
        { plan: 'draft', orders: [order('o1', 'writer', 'Draft it.')], done: false },
        { plan: 'good enough', orders: [], done: true },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [writer.agent], maxLoops: 5 }).run(
      'Write a haiku.',
    );

    expect(result.loops.map((l) => l.done)).toEqual([false, true]);
    expect(director.calls.map((c) => c.metadata?.purpose)).toEqual(['director', 'director', 'final']);
    const second = seen(director.calls[1]);
    expect(second).toContain('Write a haiku.');
    expect(second).toContain('user(writer): Order o1: Draft it.\n\ndraft one');
    expect(second).toContain('round 2 of at most 5');
  });

  it("with done on the first loop runs that loop's orders and stops, asking for no other loop", async () => {
    const writer = steadyWorker('writer', 'draft one');
    const director = headModel({
      director: [
        { plan: 'nothing to do', orders: [], done: true },
        { plan: 'one draft will do', orders: [order('o1', 'writer', 'Draft it.')], done: true },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [writer.agent], maxLoops: 3 }).run(
      'Write a haiku.',
    );

    // An empty first spec has no results to answer from: it goes back for repair, even when done.
    expect(seen(director.calls[1])).toContain('there are no results yet: give at least one order');
    expect(result.loops).toHaveLength(1);
    expect(result.loops[0]!.orders[0]).toMatchObject({ id: 'o1', status: 'done', output: 'draft one' });
    expect(director.calls.map((c) => c.metadata?.purpose)).toEqual(['director', 'director', 'final']);
    expect(result.output).toBe('answer');
  });

  it('asks for feedback on the outputs only, and shows it to the director next loop', async () => {
    const writer = steadyWorker('writer', 'draft one');
    const director = headModel({
      director: [
        { plan: 'SECRET PLAN', orders: [order('o1', 'writer', 'Draft it.')], done: false },
        { plan: 'p2', orders: [], done: true },
      ],
      feedback: ['Too long.'],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({
      director,
      agents: [writer.agent],
      maxLoops: 2,
      directorFeedback: true,
    }).run('ORIGINAL TASK');

    const feedbackCall = director.calls.find((c) => c.metadata?.purpose === 'feedback')!;
    expect(feedbackCall.messages.slice(0, -1)).toEqual([
      { role: 'user', name: 'writer', content: 'draft one' },
    ]);
    expect(seen(feedbackCall)).not.toMatch(/SECRET PLAN|ORIGINAL TASK|Draft it/);
    expect(result.loops[0]!.feedback).toBe('Too long.');
    expect(director.calls[2]!.messages).toContainEqual({ role: 'assistant', content: 'Feedback: Too long.' });
  });

  it('asks for no feedback on a loop where every order failed', async () => {
    const broken = worker('broken', fail(new Error('down')));
    const director = headModel({
      director: [
        { plan: 'p1', orders: [order('o1', 'broken', 'x')], done: false },
        { plan: 'p2', orders: [], done: true },
      ],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({
      director,
      agents: [broken.agent],
      maxLoops: 2,
      maxAgentRetries: 0,
      directorFeedback: true,
    }).run('task');
    expect(director.calls.map((c) => c.metadata?.purpose)).toEqual(['director', 'director', 'final']);
    expect(result.loops[0]!.feedback).toBeUndefined();
  });

  it('accepts a whole topology as a worker, run nested in the same run', async () => {
    const inner = steadyWorker('inner', 'inner answer');
    const innerDirector = headModel({
      director: [{ plan: 'inner plan', orders: [order('i1', 'inner', 'work')], done: false }],
      final: ['team answer'],
    });
    const team = new HierarchicalSwarm({ name: 'team', director: innerDirector, agents: [inner.agent] });
    const director = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'team', 'Handle it.')], done: false }],
      final: ['outer answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [team] }).run('task');

    expect(result.loops[0]!.orders[0]!.output).toBe('team answer');
    expect(seen(innerDirector.calls[0])).toContain('Your order (o1): Handle it.');
    expect(result.llmCalls).toBe(
      director.calls.length + innerDirector.calls.length + inner.model.calls.length,
    );
  });

  it('on a budget stop answers from the finished orders and marks the result interrupted', async () => {
    const a = steadyWorker('a', 'a output');
    const b = steadyWorker('b', 'b output');
    const director = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'a', 'x'), order('o2', 'b', 'y')], done: false }],
      final: ['never written'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [a.agent, b.agent] }).run('task', {
      budget: { maxCalls: 3 },
    });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls', llmCalls: 3 });
    expect(result.output).toBe('[a]\na output\n\n[b]\nb output');
  });

  it('does not retry an order the budget refused: it is recorded as not run', async () => {
    const a = steadyWorker('a', 'a output');
    const b = steadyWorker('b', 'b output');
    const director = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'a', 'x'), order('o2', 'b', 'y')], done: false }],
      final: ['never written'],
    });
    const events: SwarmEvent[] = [];
    const result = await new HierarchicalSwarm({
      director,
      agents: [a.agent, b.agent],
      maxWorkers: 1,
      maxAgentRetries: 2,
    }).run('task', { budget: { maxCalls: 2 }, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:calls',
      output: '[a]\na output',
    });
    expect(result.loops[0]!.orders[1]).toMatchObject({
      status: 'failed',
      attempts: 0,
      error: 'not run: the run stopped before it',
    });
    expect(events.filter((e) => e.type === 'hierarchy.order.start').map((e) => [e.id, e.attempt])).toEqual([
      ['o1', 1],
      ['o2', 1],
    ]);
  });

  it('on a token budget stop marks the result interrupted by budget:tokens', async () => {
    const a = steadyWorker('a', 'a output');
    const director = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'a', 'x')], done: false }],
      final: ['never written'],
    });
    // Every scripted call reports 15 tokens: the director's plan and the worker's answer spend 30.
    const result = await new HierarchicalSwarm({ director, agents: [a.agent] }).run('task', {
      budget: { maxTokens: 30 },
    });
    expect(result).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:tokens',
      output: '[a]\na output',
    });
    expect(director.calls.map((c) => c.metadata?.purpose)).toEqual(['director']);
  });

  it('formats the output with outputType', async () => {
    const writer = steadyWorker('writer', 'draft');
    const director = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'writer', 'x')], done: false }],
      final: ['answer'],
    });
    const result = await new HierarchicalSwarm({ director, agents: [writer.agent], outputType: 'list' }).run(
      'task',
    );
    expect(result.output).toBe('user: task\ndirector: Plan: p\nwriter: draft\ndirector: answer');
  });

  it('uses an Agent director with its own name and instructions', async () => {
    const writer = steadyWorker('writer');
    const model = headModel({
      director: [{ plan: 'p', orders: [order('o1', 'writer', 'x')], done: true }],
      final: ['answer'],
    });
    const boss = new Agent({
      name: 'boss',
      instructions: 'You run the newsroom.',
      model,
      temperature: 0.25,
      maxTokens: 700,
    });
    const result = await new HierarchicalSwarm({ director: boss, agents: [writer.agent] }).run('task');
    expect(result.output).toBe('answer');
    expect(model.calls[0]!.system).toBe('You run the newsroom.');
    // The Agent's settings hold for its structured orders and its prose answer alike.
    expect(model.calls.map((c) => [c.temperature, c.maxTokens])).toEqual([
      [0.25, 700],
      [0.25, 700],
    ]);
    expect(model.calls[0]!.metadata?.agent).toBe('boss');
    expect(writer.model.lastCall!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'boss',
      content: 'Your order (o1): x',
    });
  });

  it('rejects bad options at construction, naming the option and range', () => {
    const model = new ScriptedModel([reply('x')]);
    const agents = [steadyWorker('w').agent];
    expect(() => new HierarchicalSwarm({ director: model, agents: [] })).toThrow(ConfigError);
    expect(() => new HierarchicalSwarm({ director: model, agents, maxLoops: 0 })).toThrow(
      'HierarchicalSwarm: maxLoops must be an integer >= 1 (got 0).',
    );
    expect(() => new HierarchicalSwarm({ director: model, agents, maxAgentRetries: -1 })).toThrow(
      /maxAgentRetries must be an integer >= 0/,
    );
    expect(() => new HierarchicalSwarm({ director: model, agents, maxWorkers: 0 })).toThrow(
      /maxWorkers must be an integer >= 1 or Infinity/,
    );
    expect(() => new HierarchicalSwarm({ director: 'nope:model', agents })).toThrow(
      /^HierarchicalSwarm: director: resolveModel: unknown provider "nope"/,
    );
    const team = new HierarchicalSwarm({ director: model, agents });
    expect(() => new HierarchicalSwarm({ director: team as never, agents })).toThrow(
      'HierarchicalSwarm: director must be an Agent or a model (a Model or a model string).',
    );
  });
});
