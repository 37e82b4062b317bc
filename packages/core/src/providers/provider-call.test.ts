import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import { openaiModel } from './openai.js';
import { callPolicy, callWithRetries, retryAfterMs, streamWithRetries } from './provider-call.js';

const withHeaders = (headers: Record<string, string>) => ({ headers: new Headers(headers) });
const classify = (error: unknown) =>
  error instanceof ModelError ? error : new ModelError(String(error), { provider: 'test' });

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs(withHeaders({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(withHeaders({ 'retry-after': '3600' }))).toBe(3_600_000);
    const date = new Date(Date.now() + 120_000).toUTCString();
    const fromDate = retryAfterMs(withHeaders({ 'retry-after': date }))!;
    expect(fromDate).toBeGreaterThan(100_000);
    expect(fromDate).toBeLessThanOrEqual(120_000);
    expect(retryAfterMs(withHeaders({}))).toBeUndefined();
    expect(retryAfterMs(new Error('no headers'))).toBeUndefined();
  });
});

function timers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

describe('callWithRetries', () => {
  const policy = callPolicy('test', { maxRetries: 3, initialRetryDelayMs: 1, timeoutMs: 1_000 });

  it('retries a retryable failure and returns the first success, each attempt on a fresh signal', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const { signal: caller } = new AbortController();
    const value = await callWithRetries(policy, caller, classify, async (signal, attempt) => {
      signals.push(signal);
      if (attempt < 2) throw new ModelError('busy', { provider: 'test', retryable: true });
      return 'done';
    });
    expect(value).toBe('done');
    expect(signals.every((signal) => signal instanceof AbortSignal && signal !== caller)).toBe(true);
    expect(new Set(signals).size).toBe(3);
    expect(getEventListeners(caller, 'abort')).toHaveLength(0);
  });

  it('gives each attempt a real AbortSignal without a caller signal too', async () => {
    const signals: AbortSignal[] = [];
    await callWithRetries(policy, undefined, classify, async (signal) => signals.push(signal));
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });

  it('runs the attempts of a call nothing can cancel on fresh signals, retries, and leaves no timer', async () => {
    const signals: AbortSignal[] = [];
    const before = timers();
    const value = await callWithRetries(policy, undefined, classify, async (signal, attempt) => {
      signals.push(signal);
      if (attempt < 2) throw new ModelError('busy', { provider: 'test', retryable: true });
      return 'done';
    });
    expect(value).toBe('done');
    expect(signals).toHaveLength(3);
    expect(new Set(signals).size).toBe(3);
    expect(signals.every((signal) => signal instanceof AbortSignal)).toBe(true);
    expect(signals.every((signal) => signal.aborted === false)).toBe(true);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it("links each attempt's signal to the caller's: its abort ends the attempt as AbortError, no listener left", async () => {
    const caller = new AbortController();
    const signals: AbortSignal[] = [];
    await callWithRetries(policy, caller.signal, classify, async (signal) => signals.push(signal));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);

    const call = callWithRetries(policy, caller.signal, classify, (signal) => {
      setTimeout(() => caller.abort(), 5);
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('cut'))),
      );
    });
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('links the attempts to a deadline when there is one, even without a caller signal', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    await callWithRetries(callPolicy('test', { deadlineMs: 5_000 }), undefined, classify, async (signal) =>
      signals.push(signal),
    );
    expect(signals[0]).toBeInstanceOf(AbortSignal);
  });

  it('does not retry a non-retryable failure', async () => {
    let attempts = 0;
    const error = await callWithRetries(policy, undefined, classify, async () => {
      attempts++;
      throw new ModelError('bad request', { provider: 'test', status: 400 });
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400 });
    expect(attempts).toBe(1);
  });

  it('turns an attempt that outlives timeoutMs into a retryable timeout, not an abort', async () => {
    const { signal: caller } = new AbortController();
    const error = await callWithRetries(
      callPolicy('test', { maxRetries: 0, timeoutMs: 20 }),
      caller,
      classify,
      (signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).not.toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ retryable: true, message: 'test: the request timed out after 20 ms.' });
    expect(getEventListeners(caller, 'abort')).toHaveLength(0);
  });

  it("times out an attempt with the typed error, firing its signal's listeners, and retries it", async () => {
    const before = timers();
    const seen: AbortSignal[] = [];
    const started = performance.now();
    const error = await callWithRetries(
      callPolicy('test', { maxRetries: 1, initialRetryDelayMs: 1, timeoutMs: 20 }),
      undefined,
      classify,
      (signal) => {
        seen.push(signal);
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('cut by the attempt signal'))),
        );
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).not.toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ retryable: true, message: 'test: the request timed out after 20 ms.' });
    expect(seen).toHaveLength(2);
    expect(seen.every((signal) => signal.aborted && signal.reason instanceof Error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('ends an attempt that ignores its signal when it times out, and retries it on a fresh one', async () => {
    const before = timers();
    const seen: AbortSignal[] = [];
    const started = performance.now();
    const error = await callWithRetries(
      callPolicy('test', { maxRetries: 2, initialRetryDelayMs: 1, timeoutMs: 20 }),
      undefined,
      classify,
      (signal) => {
        seen.push(signal);
        return new Promise<never>(() => {}); // heeds nothing, never settles
      },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).not.toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ retryable: true, message: 'test: the request timed out after 20 ms.' });
    expect(seen).toHaveLength(3);
    expect(seen.every((signal) => signal.aborted)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('ends a call whose attempt ignores its signal when the caller aborts, first attempt or retry', async () => {
    for (const failFirst of [false, true]) {
      const controller = new AbortController();
      const retrying = callPolicy('test', { maxRetries: 2, initialRetryDelayMs: 1 });
      const call = callWithRetries(retrying, controller.signal, classify, (_signal, attempt) => {
        if (failFirst && attempt === 0) {
          return Promise.reject(new ModelError('busy', { provider: 'test', retryable: true }));
        }
        setTimeout(() => controller.abort(), 5);
        return new Promise<never>(() => {});
      });
      await expect(call).rejects.toBeInstanceOf(AbortError);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
  });

  it('ends a call at its deadline when every attempt ignores its signal, leaving no timer', async () => {
    const before = timers();
    const started = performance.now();
    const error = await callWithRetries(
      callPolicy('test', { maxRetries: 5, initialRetryDelayMs: 1, deadlineMs: 40 }),
      undefined,
      classify,
      () => new Promise<never>(() => {}),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/passed its deadline of 40 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('settles once: an attempt that answers after its signal fired changes nothing', async () => {
    let answer: (value: string) => void = () => {};
    const controller = new AbortController();
    const call = callWithRetries(
      callPolicy('test', { maxRetries: 0 }),
      controller.signal,
      classify,
      () => new Promise<string>((resolve) => (answer = resolve)),
    );
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    answer('late');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(call).rejects.toBeInstanceOf(AbortError);
  });

  it('reads each response with `read`: its value is the answer, and what it throws fails that attempt', async () => {
    const responses = ['', 'ok'];
    let attempts = 0;
    const value = await callWithRetries(
      policy,
      undefined,
      classify,
      async () => responses[attempts++]!,
      (response) => {
        if (response === '') throw new ModelError('empty response', { provider: 'test', retryable: true });
        return response.length;
      },
    );
    expect(value).toBe(2);
    expect(attempts).toBe(2);

    let tries = 0;
    const error = await callWithRetries(
      policy,
      undefined,
      classify,
      async () => tries++,
      () => {
        throw new ModelError('bad request', { provider: 'test', status: 400 });
      },
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: 'bad request', status: 400 });
    expect(tries).toBe(1);
  });

  it('reports an abort by the caller as AbortError, not as a provider failure', async () => {
    const controller = new AbortController();
    const call = callWithRetries(policy, controller.signal, classify, (signal) => {
      setTimeout(() => controller.abort(), 5);
      return new Promise((_resolve, reject) =>
        signal?.addEventListener('abort', () => reject(new Error('cut'))),
      );
    });
    await expect(call).rejects.toBeInstanceOf(AbortError);
  });
});

describe('streamWithRetries', () => {
  const policy = callPolicy('test', { maxRetries: 2, initialRetryDelayMs: 1 });
  const busy = () => new ModelError('busy', { provider: 'test', retryable: true });
  const collect = async <E>(events: AsyncIterable<E>) => {
    const all: E[] = [];
    for await (const event of events) all.push(event);
    return all;
  };

  it('retries an attempt that fails before it yields anything, each on a fresh signal', async () => {
    const signals: AbortSignal[] = [];
    const events = await collect(
      streamWithRetries(policy, undefined, classify, async function* (signal, attempt) {
        signals.push(signal);
        if (attempt === 0) throw busy();
        yield 'a';
        yield 'b';
      }),
    );
    expect(events).toEqual(['a', 'b']);
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
  });

  it('rethrows a failure after the first event instead of repeating what was yielded', async () => {
    let attempts = 0;
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of streamWithRetries(policy, undefined, classify, async function* () {
        attempts++;
        yield 'a';
        throw busy();
      })) {
        seen.push(event);
      }
    })().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: 'busy', retryable: true });
    expect(seen).toEqual(['a']);
    expect(attempts).toBe(1);
  });

  it('ends with AbortError when the caller aborts during the wait before a retry, leaving no listener or timer', async () => {
    const before = timers();
    const controller = new AbortController();
    const slow = callPolicy('test', { maxRetries: 2, initialRetryDelayMs: 5_000 });
    const pending = collect(
      streamWithRetries(slow, controller.signal, classify, async function* () {
        yield* [];
        throw busy();
      }),
    );
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('provider call options', () => {
  it('rejects bad retry and deadline options at construction, naming them', () => {
    expect(() => openaiModel('m', { maxRetryDelayMs: -1 })).toThrow(ConfigError);
    expect(() => openaiModel('m', { maxRetryDelayMs: -1 })).toThrow(/maxRetryDelayMs/);
    expect(() => openaiModel('m', { deadlineMs: 0 })).toThrow(/deadlineMs/);
    expect(() => openaiModel('m', { initialRetryDelayMs: Number.NaN })).toThrow(/initialRetryDelayMs/);
  });

  it('rejects a timeout or deadline longer than a Node timer can wait (it would fire at once)', () => {
    const days30 = 30 * 24 * 3_600_000;
    expect(() => openaiModel('m', { timeoutMs: days30 })).toThrow(ConfigError);
    expect(() => openaiModel('m', { timeoutMs: days30 })).toThrow(/timeoutMs must be at most 2147483647 ms/);
    expect(() => openaiModel('m', { deadlineMs: days30 })).toThrow(/deadlineMs must be at most/);
    expect(() => openaiModel('m', { timeoutMs: 2_147_483_647 })).not.toThrow();
  });
});
