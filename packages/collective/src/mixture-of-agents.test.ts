import { Agent, ConfigError, ModelError, type SwarmEvent } from '@swarm/core';
import { Gate, reply, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { reverseFinish, scripted } from './test-helpers.js';

const task = 'Name the largest planet.';

// Two workers whose n-th answer is "<name> n".
const adaAndBob = () => ['ada', 'bob'].map((name) => scripted(name, (_r, i) => `${name} ${i + 1}`).agent);

describe('MixtureOfAgents', () => {
  it('runs the workers of a layer at once and keys answers by worker, not by who finished first', async () => {
    const order = reverseFinish(3);
    const workers = ['ada', 'bob', 'cy'].map(
      (name, i) =>
        scripted(name, async (_req, call) => {
          await order.hold(i);
          return `${name} answer ${call + 1}`;
        }).agent,
    );
    const aggregator = scripted('judge', () => 'Jupiter').agent;
    const moa = new MixtureOfAgents({ agents: workers, aggregator, layers: 1 });

    // All three start before any returns (the layer is concurrent); they finish in reverse order.
    const result = await moa.run(task);
    expect(order.finished).toEqual([2, 1, 0]);

    expect(result.layers).toEqual([
      [
        { agent: 'ada', output: 'ada answer 1' },
        { agent: 'bob', output: 'bob answer 1' },
        { agent: 'cy', output: 'cy answer 1' },
      ],
    ]);
    expect(result.output).toBe('Jupiter');
  });

  it('runs at most maxWorkers workers at once', async () => {
    const gates = [new Gate(), new Gate(), new Gate()];
    let running = 0;
    let most = 0;
    const workers = ['ada', 'bob', 'cy'].map(
      (name, i) =>
        scripted(name, async () => {
          running += 1;
          most = Math.max(most, running);
          await gates[i]!.wait();
          running -= 1;
          return name;
        }).agent,
    );
    const result = new MixtureOfAgents({
      agents: workers,
      aggregator: scripted('agg', () => 'done').agent,
      layers: 1,
      maxWorkers: 2,
    }).run(task);
    // ada and bob start together; cy starts only once ada is done (a third at once would make most 3).
    await Promise.all([gates[0]!.until(1), gates[1]!.until(1)]);
    gates[0]!.open();
    await gates[2]!.until(1);
    expect(gates[1]!.waiting).toBe(1);
    for (const gate of gates) gate.open();
    expect((await result).output).toBe('done');
    expect(most).toBe(2);
  });

  it("shows each worker of a later layer the task and only the previous layer's answers as typed turns", async () => {
    const ada = scripted('ada', (_r, i) => `ada ${i + 1}`);
    const bob = scripted('bob', (_r, i) => `bob ${i + 1}`);
    const moa = new MixtureOfAgents({
      agents: [ada.agent, bob.agent],
      aggregator: scripted('agg', () => 'final').agent,
      layers: 3,
    });

    await moa.run(task);

    expect(ada.model.calls[0]?.messages).toEqual([{ role: 'user', content: task }]);
    const third = ada.model.calls[2]?.messages ?? [];
    expect(third.slice(0, 3)).toEqual([
      { role: 'user', content: task },
      { role: 'assistant', content: 'ada 2' },
      { role: 'user', name: 'bob', content: 'bob 2' },
    ]);
    expect(third).toHaveLength(4);
    expect(JSON.stringify(third)).not.toContain('ada 1');
  });

  it('has the aggregator answer the task itself from the last layer', async () => {
    const aggregator = scripted('agg', () => 'Jupiter is the largest planet.');
    const moa = new MixtureOfAgents({
      agents: adaAndBob(),
      aggregator: aggregator.agent,
      layers: 2,
    });

    const result = await moa.run(task);

    const seen = aggregator.model.lastCall?.messages ?? [];
    expect(seen[0]).toEqual({ role: 'user', content: task });
    expect(seen.slice(1, 3)).toEqual([
      { role: 'user', name: 'ada', content: 'ada 2' },
      { role: 'user', name: 'bob', content: 'bob 2' },
    ]);
    expect(seen.at(-1)?.content).toMatch(/answer the task yourself/);
    expect(result.output).toBe('Jupiter is the largest planet.');
  });

  it('keeps every answer of every layer in the shared conversation', async () => {
    const moa = new MixtureOfAgents({
      agents: adaAndBob(),
      aggregator: scripted('agg', () => 'final').agent,
      layers: 2,
    });

    const { conversation } = await moa.run(task);

    expect(conversation.format('list')).toEqual([
      `user: ${task}`,
      'ada: ada 1',
      'bob: bob 1',
      'ada: ada 2',
      'bob: bob 2',
      'agg: final',
    ]);
  });

  it('records a failing worker and goes on with the others', async () => {
    const bob = new Agent({ name: 'bob', model: new ScriptedModel([reply('bob 1')]) });
    const broken = new Agent({
      name: 'broken',
      model: new ScriptedModel([], {
        fallback: { kind: 'fail', error: new ModelError('down', { provider: 'x' }) },
      }),
    });
    const aggregator = scripted('agg', () => 'final');
    const moa = new MixtureOfAgents({ agents: [broken, bob], aggregator: aggregator.agent, layers: 1 });

    const result = await moa.run(task);

    expect(result.layers[0]).toEqual([
      { agent: 'broken', error: 'down' },
      { agent: 'bob', output: 'bob 1' },
    ]);
    expect(aggregator.model.lastCall?.messages[1]).toEqual({ role: 'user', name: 'bob', content: 'bob 1' });
    expect(result.output).toBe('final');
  });

  it('keeps the last layer anyone answered when a whole later layer fails', async () => {
    const failsLater = (name: string) =>
      scripted(name, (_r, i) => {
        if (i > 0) throw new Error(`${name} is down`);
        return `${name} 1`;
      }).agent;
    const aggregator = scripted('agg', () => 'final');
    const result = await new MixtureOfAgents({
      agents: [failsLater('ada'), failsLater('bob')],
      aggregator: aggregator.agent,
      layers: 2,
    }).run(task);
    expect(result.layers[1]).toEqual([
      { agent: 'ada', error: 'ada is down' },
      { agent: 'bob', error: 'bob is down' },
    ]);
    expect(aggregator.model.lastCall?.messages.slice(1, 3)).toEqual([
      { role: 'user', name: 'ada', content: 'ada 1' },
      { role: 'user', name: 'bob', content: 'bob 1' },
    ]);
    expect(result.output).toBe('final');
  });

  it('emits moa.layer with the counts of each layer', async () => {
    const events: SwarmEvent[] = [];
    const flaky = scripted('flaky', (_r, i) => {
      if (i > 0) throw new Error('down');
      return 'flaky 1';
    }).agent;
    await new MixtureOfAgents({
      agents: [flaky, scripted('bob', () => 'bob').agent],
      aggregator: scripted('agg', () => 'final').agent,
      layers: 2,
    }).run(task, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'moa.layer')).toMatchObject([
      { layer: 1, answered: 2, failed: 0 },
      { layer: 2, answered: 1, failed: 1 },
    ]);
  });

  it('fails with NO_ANSWER when every worker fails', async () => {
    const broken = new Agent({
      name: 'broken',
      model: new ScriptedModel([{ kind: 'fail', error: new Error('boom') }]),
    });
    const moa = new MixtureOfAgents({
      agents: [broken],
      aggregator: scripted('agg', () => 'x').agent,
      layers: 1,
    });
    await expect(moa.run(task)).rejects.toMatchObject({ code: 'NO_ANSWER' });
  });

  it('answers from the latest layer when the budget stops it before the aggregator', async () => {
    const aggregator = scripted('agg', () => 'never');
    const moa = new MixtureOfAgents({
      agents: adaAndBob(),
      aggregator: aggregator.agent,
      layers: 2,
    });

    const result = await moa.run(task, { budget: { maxCalls: 4 } });

    expect(result).toMatchObject({ output: 'ada 2', interrupted: true, interruptionReason: 'budget:calls' });
    expect(aggregator.model.calls).toHaveLength(0);
    expect(result.llmCalls).toBe(4);
    // The conversation holds the answers given, and no aggregator answer that never came.
    expect(result.conversation.format('list')).toEqual([
      `user: ${task}`,
      'ada: ada 1',
      'bob: bob 1',
      'ada: ada 2',
      'bob: bob 2',
    ]);
  });

  it('stops layering at the budget and answers from the answers the cut layer has', async () => {
    const moa = new MixtureOfAgents({
      agents: adaAndBob(),
      aggregator: scripted('agg', () => 'never').agent,
      layers: 3,
    });

    const result = await moa.run(task, { budget: { maxCalls: 3 } });

    expect(result.layers).toHaveLength(2);
    expect(result.layers[1]).toEqual([
      { agent: 'ada', output: 'ada 2' },
      { agent: 'bob', error: expect.stringMatching(/budget/) },
    ]);
    expect(result).toMatchObject({ output: 'ada 2', interrupted: true, interruptionReason: 'budget:calls' });
  });

  it('takes a whole topology as a worker, nested in the same run', async () => {
    const inner = new MixtureOfAgents({
      name: 'inner',
      agents: [scripted('x', () => 'x says 5').agent],
      aggregator: scripted('x-agg', () => 'inner says 5').agent,
      layers: 1,
    });
    const outer = new MixtureOfAgents({
      agents: [inner, scripted('y', () => 'y says 5').agent],
      aggregator: scripted('agg', () => '5').agent,
      layers: 1,
    });

    const result = await outer.run('2 + 3?');

    expect(result.layers[0]).toEqual([
      { agent: 'inner', output: 'inner says 5' },
      { agent: 'y', output: 'y says 5' },
    ]);
    expect(result.llmCalls).toBe(4);
  });

  it('rejects bad options with a ConfigError naming them', () => {
    const a = scripted('a', () => '').agent;
    expect(() => new MixtureOfAgents({ agents: [a], aggregator: a, layers: 0 })).toThrow(
      /layers must be an integer >= 1/,
    );
    expect(() => new MixtureOfAgents({ agents: [], aggregator: a })).toThrow(ConfigError);
    expect(() => new MixtureOfAgents({ agents: [a], aggregator: undefined as never })).toThrow(
      /aggregator must be/,
    );
    expect(() => new MixtureOfAgents({ agents: [a], aggregator: a, maxWorkers: 1.5 })).toThrow(/maxWorkers/);
  });
});
