import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import { mapSettled } from './concurrency.js';
import { AbortError, BudgetExceededError } from './errors.js';
import type { SwarmEvent } from './events.js';
import { Limiter } from './limiter.js';
import { RunContext } from './run-context.js';
import { runStream } from './run-stream.js';
import { Gate } from './testing/gate.js';
import { reply, respond, ScriptedModel } from './testing/scripted-model.js';

describe('Limiter', () => {
  it('never runs more calls at once than its concurrency', async () => {
    const limiter = new Limiter({ concurrency: 2 });
    const gate = new Gate();
    let inFlight = 0;
    let peak = 0;
    const task = async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await gate.wait();
      inFlight -= 1;
    };
    const all = Promise.all(Array.from({ length: 5 }, () => limiter.run(task)));
    await gate.until(2);
    expect(limiter.pending).toBe(2);
    expect(limiter.waiting).toBe(3);
    gate.open();
    await all;
    expect(peak).toBe(2);
  });

  it('is shared by the model calls of several runs', async () => {
    const limiter = new Limiter({ concurrency: 1 });
    const gate = new Gate();
    const model = new ScriptedModel([], {
      fallback: respond(async () => {
        await gate.wait();
        return 'ok';
      }),
    });
    const agent = new Agent({ name: 'a', model });
    const runs = [agent.run('one', { limiter }), agent.run('two', { limiter })];
    await gate.until(1);
    await new Promise((r) => setTimeout(r, 10));
    expect(gate.waiting).toBe(1);
    expect(limiter.waiting).toBe(1);
    gate.open();
    await Promise.all(runs);
    expect(model.calls).toHaveLength(2);
  });

  it('rejects a bad concurrency', () => {
    expect(() => new Limiter({ concurrency: 0 })).toThrow(/concurrency must be an integer >= 1/);
    expect(() => new Limiter({ requestsPerMinute: 1.5 })).toThrow(/requestsPerMinute/);
  });
});

describe('budget', () => {
  it('stops a run with BudgetExceededError when the next call would pass maxCalls', async () => {
    const model = new ScriptedModel([], { fallback: reply('ok') });
    const agent = new Agent({ name: 'a', model });
    const context = new RunContext({ budget: { maxCalls: 2 } });
    await agent.run('1', { context });
    await agent.run('2', { context });
    const error = await agent.run('3', { context }).catch((e) => e);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as BudgetExceededError).reason).toBe('budget:calls');
    expect(model.calls).toHaveLength(2);
  });

  it('stops when the tokens used reach maxTokens', async () => {
    const model = new ScriptedModel([], {
      fallback: reply('ok', { usage: { inputTokens: 60, outputTokens: 40 } }),
    });
    const context = new RunContext({ budget: { maxTokens: 150 } });
    const agent = new Agent({ name: 'a', model });
    await agent.run('1', { context });
    await agent.run('2', { context });
    await expect(agent.run('3', { context })).rejects.toMatchObject({ reason: 'budget:tokens' });
    expect(context.usage.totalTokens).toBe(200);
  });
});

describe('abort', () => {
  it('cancels a pending scripted call with AbortError', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([reply('late')], { latencyMs: 10_000 });
    const running = new Agent({ name: 'a', model }).run('x', { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });
});

describe('runStream', () => {
  it('yields the same events as onEvent, in order, and then the result', async () => {
    const model = new ScriptedModel([reply('streamed answer')]);
    const agent = new Agent({ name: 'a', model });
    const seen: SwarmEvent[] = [];
    const stream = runStream((options) => agent.run('x', options), { onEvent: (e) => seen.push(e) });
    const iterated: SwarmEvent[] = [];
    for await (const event of stream) iterated.push(event);
    expect(iterated).toEqual(seen);
    expect(iterated.map((e) => e.type)).toEqual([
      'agent.start',
      'model.request',
      'model.delta',
      'model.delta',
      'model.response',
      'agent.end',
    ]);
    expect(iterated.filter((e) => e.type === 'model.delta').map((e) => e.delta)).toEqual([
      'streamed ',
      'answer',
    ]);
    expect((await stream.result).output).toBe('streamed answer');
  });

  it('throws from the iterator after the events that came before a failure', async () => {
    const model = new ScriptedModel([]);
    const stream = runStream((options) => new Agent({ name: 'a', model }).run('x', options));
    const types: string[] = [];
    await expect(async () => {
      for await (const event of stream) types.push(event.type);
    }).rejects.toThrow(/script is spent/);
    expect(types).toEqual(['agent.start', 'model.request', 'model.error']);
    await expect(stream.result).rejects.toThrow(/script is spent/);
  });
});

describe('mapSettled', () => {
  it('keeps results in input order and keeps siblings when one fails', async () => {
    const gate = new Gate();
    const settled = mapSettled(
      [3, 0, 1],
      async (n) => {
        await gate.wait();
        if (n === 0) throw new Error('zero');
        return n * 10;
      },
      { concurrency: 2 },
    );
    await gate.until(2);
    expect(gate.waiting).toBe(2);
    gate.open();
    const results = await settled;
    expect(results[0]).toEqual({ status: 'fulfilled', value: 30 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('zero') });
    expect(results[2]).toEqual({ status: 'fulfilled', value: 10 });
  });
});
