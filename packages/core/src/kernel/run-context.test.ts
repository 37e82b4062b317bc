import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { Model } from '../contracts/model.js';
import { Gate } from '../testing/gate.js';
import { reply, respond, ScriptedModel } from '../testing/scripted-model.js';
import { mapSettled } from './concurrency.js';
import { AbortError, BudgetExceededError, ConfigError } from './errors.js';
import { Limiter } from './limiter.js';
import { RunContext } from './run-context.js';
import { runStream } from './run-stream.js';

/** A model whose every call waits at `gate`, then answers 'ok'. */
function answersOkAt(gate: Gate): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond(async () => {
      await gate.wait();
      return 'ok';
    }),
  });
}

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
    const model = answersOkAt(gate);
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

  it('starts at most requestsPerMinute calls in a minute', async () => {
    const limiter = new Limiter({ requestsPerMinute: 2 });
    const controller = new AbortController();
    const started: number[] = [];
    const runs = [1, 2, 3].map((n) =>
      limiter.run(
        async () => {
          started.push(n);
        },
        { signal: controller.signal },
      ),
    );
    await Promise.all(runs.slice(0, 2));
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toEqual([1, 2]);
    expect(limiter.waiting).toBe(1);
    controller.abort();
    await expect(runs[2]).rejects.toBeInstanceOf(AbortError);
    expect(started).toEqual([1, 2]);
  });

  it('never starts a call that is aborted while it waits for a slot', async () => {
    const limiter = new Limiter({ concurrency: 1 });
    const gate = new Gate();
    const controller = new AbortController();
    let secondStarted = false;
    const first = limiter.run(() => gate.wait());
    const second = limiter.run(
      async () => {
        secondStarted = true;
      },
      { signal: controller.signal },
    );
    expect(limiter.waiting).toBe(1);
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(AbortError);
    gate.open();
    await first;
    expect(secondStarted).toBe(false);
    expect(limiter.waiting).toBe(0);
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

  it('lets exactly maxCalls of many concurrent calls through and counts only those', async () => {
    const gate = new Gate();
    const model = answersOkAt(gate);
    const agent = new Agent({ name: 'a', model });
    const context = new RunContext({ budget: { maxCalls: 2 } });
    const settled = mapSettled([1, 2, 3, 4], (n) => agent.run(String(n), { context }));
    await gate.until(2);
    gate.open();
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(results[2]).toMatchObject({ reason: { reason: 'budget:calls' } });
    expect(model.calls).toHaveLength(2);
    expect(context.llmCalls).toBe(2);
  });

  it('does not count a call the budget refused', async () => {
    const model = new ScriptedModel([], { fallback: reply('ok') });
    const context = new RunContext({ budget: { maxCalls: 1 } });
    await context.callModel(model, { messages: [{ role: 'user', content: '1' }] });
    await expect(context.callModel(model, { messages: [] })).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(context.callModel(model, { messages: [] })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(context.llmCalls).toBe(1);
  });

  it('refuses a call that waited for the limiter while the tokens ran out', async () => {
    const limiter = new Limiter({ concurrency: 1 });
    const gate = new Gate();
    const model = new ScriptedModel(
      [
        respond(async () => {
          await gate.wait();
          return { text: 'big', usage: { inputTokens: 90, outputTokens: 20 } };
        }),
      ],
      { fallback: reply('should not run') },
    );
    const context = new RunContext({ budget: { maxTokens: 100 }, limiter });
    const first = context.callModel(model, { messages: [] });
    const second = context.callModel(model, { messages: [] }).catch((e: unknown) => e);
    await gate.until(1);
    expect(limiter.waiting).toBe(1);
    gate.open();
    await first;
    expect(await second).toMatchObject({ reason: 'budget:tokens' });
    expect(model.calls).toHaveLength(1);
    expect(context.llmCalls).toBe(1);
  });

  it('rejects a bad budget at construction, naming the field', () => {
    expect(() => new RunContext({ budget: { maxCalls: -1 } })).toThrow(ConfigError);
    expect(() => new RunContext({ budget: { maxCalls: 1.5 } })).toThrow(
      /budget\.maxCalls must be an integer >= 0/,
    );
    expect(() => new RunContext({ budget: { maxTokens: Number.NaN } })).toThrow(/budget\.maxTokens/);
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

  it("tags each call's deltas with its callId, so two calls of one agent streaming at once can be told apart", async () => {
    const twins = ['first answer here', 'second answer there'].map(
      (text) => new Agent({ name: 'twin', model: new ScriptedModel([reply(text)]) }),
    );
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (e) => events.push(e), textDeltas: true });
    await Promise.all(twins.map((twin, i) => twin.run(`task ${i}`, { context })));
    const requests = events.filter((e) => e.type === 'model.request').map((e) => e.callId);
    expect(new Set(requests).size).toBe(2);
    const textOf = (callId: unknown) =>
      events
        .filter((e) => e.type === 'model.delta' && e.callId === callId)
        .map((e) => e.delta)
        .join('');
    expect(requests.map(textOf).sort()).toEqual(['first answer here', 'second answer there']);
  });

  it('keeps the events emitted before iteration starts, even after the run has ended', async () => {
    const model = new ScriptedModel([reply('done')]);
    const stream = runStream((options) => new Agent({ name: 'a', model }).run('x', options));
    await stream.result;
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('agent.start');
    expect(types.at(-1)).toBe('agent.end');
  });

  it('serves every event to two iterators reading at once', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([
      respond(async () => {
        await gate.wait();
        return 'done';
      }),
    ]);
    const stream = runStream((options) => new Agent({ name: 'a', model }).run('x', options));
    const read = async () => {
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      return types;
    };
    const both = Promise.all([read(), read()]);
    await gate.until(1);
    await new Promise((r) => setTimeout(r, 5));
    gate.open();
    const [a, b] = await both;
    expect(a).toEqual(b);
    expect(a.at(-1)).toBe('agent.end');
  });

  it('throws from the iterator after the events that came before a failure', async () => {
    const model = new ScriptedModel([]);
    const stream = runStream((options) => new Agent({ name: 'a', model }).run('x', options));
    const types: string[] = [];
    await expect(async () => {
      for await (const event of stream) types.push(event.type);
    }).rejects.toThrow(/script is spent/);
    expect(types).toEqual(['agent.start', 'model.request', 'model.error', 'agent.error']);
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

  it('rejects a concurrency that is not a whole number of workers', async () => {
    await expect(mapSettled([1], async (n) => n, { concurrency: 1.5 })).rejects.toThrow(
      /mapSettled: concurrency must be an integer >= 1 or Infinity/,
    );
    await expect(mapSettled([1], async (n) => n, { concurrency: 0 })).rejects.toThrow(ConfigError);
  });
});

describe('withSignal', () => {
  it('is the same run with one more cancel signal: same id, path, events, budget and totals', async () => {
    const events: SwarmEvent[] = [];
    const parent = new RunContext({ topology: 'Outer', onEvent: (e) => events.push(e) });
    const context = new RunContext({ parent, topology: 'Inner', budget: { maxCalls: 2 } });
    const controller = new AbortController();
    const view = context.withSignal(controller.signal);
    expect(view).not.toBe(context);
    expect(view.runId).toBe(context.runId);
    expect(view.path).toEqual(['Outer', 'Inner']);

    const model = new ScriptedModel([], { fallback: reply('ok') });
    await view.callModel(model, { messages: [{ role: 'user', content: 'hi' }] });
    // The call counts in the run and its ancestors, and its events carry the run's own id.
    expect([context.llmCalls, parent.llmCalls, view.llmCalls]).toEqual([1, 1, 1]);
    expect(context.usage.totalTokens).toBeGreaterThan(0);
    expect(view.usage).toBe(context.usage);
    expect(events.filter((e) => e.type === 'model.request').map((e) => e.runId)).toEqual([context.runId]);
    // The run's budget holds for the view: the third call of the two-call budget is refused.
    await context.callModel(model, { messages: [{ role: 'user', content: 'hi' }] });
    await expect(view.callModel(model, { messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      BudgetExceededError,
    );
  });

  it("fires on its own signal without cancelling the run, and on the run's signal", async () => {
    const runController = new AbortController();
    const context = new RunContext({ signal: runController.signal });
    const own = new AbortController();
    const view = context.withSignal(own.signal);
    own.abort();
    expect(view.signal?.aborted).toBe(true);
    expect(context.signal?.aborted).toBe(false);

    const other = context.withSignal(new AbortController().signal);
    runController.abort();
    expect(other.signal?.aborted).toBe(true);
    expect(context.withSignal(undefined)).toBe(context);
  });
});

describe('model call events', () => {
  it('pair each concurrent call of one agent by callId, the second to finish included', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([
      respond(async () => {
        await gate.wait();
        return 'slow';
      }),
      reply('fast'),
    ]);
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (e) => events.push(e) });
    const request = {
      messages: [{ role: 'user' as const, content: 'x' }],
      metadata: { agent: 'a', purpose: 'p' },
    };
    const slow = context.callModel(model, request);
    const fast = await context.callModel(model, request);
    gate.open();
    await slow;

    const requests = events.filter((e) => e.type === 'model.request');
    const responses = events.filter((e) => e.type === 'model.response');
    expect(fast.text).toBe('fast');
    expect(new Set(requests.map((e) => e.callId)).size).toBe(2);
    // The second request was answered first: its response carries its own callId.
    expect(responses.map((e) => e.callId)).toEqual([requests[1]!.callId, requests[0]!.callId]);
  });

  it('stamp a failed call with its callId and the error code', async () => {
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (e) => events.push(e) });
    await expect(context.callModel(new ScriptedModel(), { messages: [] })).rejects.toThrow(/script is spent/);
    const [request, error] = events;
    expect(error).toMatchObject({ type: 'model.error', callId: request!.callId, code: 'MODEL' });
  });
});

describe('callModel with hand-written models', () => {
  const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
  const answer = {
    text: 'ok',
    toolCalls: [],
    usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 },
    finishReason: 'stop' as const,
    modelId: 'plain',
  };

  it('takes an answer a generate returns without a promise, and counts its usage', async () => {
    const context = new RunContext();
    const model = { id: 'plain', generate: () => answer } as unknown as Model;
    await expect(context.callModel(model, request)).resolves.toBe(answer);
    expect(context.usage.totalTokens).toBe(2);
  });

  it('rejects (never throws) when generate throws synchronously, with a model.error event', async () => {
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (event) => events.push(event) });
    const model: Model = {
      id: 'broken',
      generate: () => {
        throw new Error('boom');
      },
    };
    const pending = context.callModel(model, request);
    await expect(pending).rejects.toThrow('boom');
    expect(events.map((event) => event.type)).toEqual(['model.request', 'model.error']);
    expect(context.llmCalls).toBe(1);
  });

  it('counts a call whose model.request listener throws as started and failed, and rejects', async () => {
    const events: SwarmEvent[] = [];
    const context = new RunContext({
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'model.request') throw new Error('listener broke');
      },
    });
    let generated = 0;
    const model = { id: 'plain', generate: () => ++generated && answer } as unknown as Model;
    const pending = context.callModel(model, request);
    await expect(pending).rejects.toThrow('listener broke');
    expect(generated).toBe(0);
    expect(events.map((event) => event.type)).toEqual(['model.request', 'model.error']);
    expect(context.llmCalls).toBe(1);
  });

  it('counts calls and usage when nobody listens to the events', async () => {
    const context = new RunContext();
    const model = { id: 'plain', generate: async () => answer } as unknown as Model;
    await context.callModel(model, request);
    await context.callModel(model, request);
    expect(context.llmCalls).toBe(2);
    expect(context.usage.totalTokens).toBe(4);
  });
});
