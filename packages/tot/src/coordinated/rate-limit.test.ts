import { AbortError, Limiter } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestRate, rateLimited } from './rate-limit.js';

const MINUTE = 60_000;

/** Lets every pending promise callback run (setImmediate is not faked). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('rateLimited', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at most requestsPerMinute calls in any minute, even when a shared limiter delays them', async () => {
    const rate = new RequestRate(2);
    const shared = new Limiter({ concurrency: 1 });
    const t0 = Date.now();
    const starts: number[] = [];
    const call = async () => {
      starts.push(Date.now() - t0);
    };
    // Someone else holds the shared limiter's only slot for 59 seconds; two calls wait behind it.
    const blocker = new Gate();
    const held = shared.run(() => blocker.wait());
    const first = [rateLimited(rate, shared).run(call), rateLimited(rate, shared).run(call)];
    await vi.advanceTimersByTimeAsync(59_000);
    blocker.open();
    await Promise.all([held, ...first]);
    // A minute after the first two took their places, they started only a second ago.
    await vi.advanceTimersByTimeAsync(1_000);
    const third = rateLimited(rate, shared).run(call);
    await vi.advanceTimersByTimeAsync(MINUTE);
    await third;

    expect(starts).toEqual([59_000, 59_000, 59_000 + MINUTE]);
  });

  it('lets the next call through when the oldest start leaves the minute, first come first served', async () => {
    const rate = new RequestRate(1);
    const order: string[] = [];
    const t0 = Date.now();
    const run = (name: string) =>
      rateLimited(rate, undefined).run(async () => {
        order.push(`${name}@${Date.now() - t0}`);
      });

    const all = Promise.all([run('a'), run('b'), run('c')]);
    await settle();
    expect(order).toEqual(['a@0']);
    expect(rate.waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(order).toEqual(['a@0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toEqual(['a@0', `b@${MINUTE}`]);
    await vi.advanceTimersByTimeAsync(MINUTE);
    await all;
    expect(order).toEqual(['a@0', `b@${MINUTE}`, `c@${2 * MINUTE}`]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a waiting call with AbortError at once, gives its place to no one, and leaves no timer', async () => {
    const rate = new RequestRate(1);
    const controller = new AbortController();
    await rateLimited(rate, undefined).run(async () => undefined);
    let ran = false;
    const waiting = rateLimited(rate, undefined).run(
      async () => {
        ran = true;
      },
      { signal: controller.signal },
    );
    await settle();
    expect(rate.waiting).toBe(1);

    controller.abort();

    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(ran).toBe(false);
    expect(rate.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives back the place of a call the shared limiter never started', async () => {
    const rate = new RequestRate(1);
    const shared = new Limiter({ concurrency: 1 });
    const blocker = new Gate();
    const held = shared.run(() => blocker.wait());
    const controller = new AbortController();
    const cancelled = rateLimited(rate, shared).run(async () => 'never', { signal: controller.signal });
    await settle();
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(AbortError);
    blocker.open();
    await held;

    // No minute has passed, yet the place is free again: the cancelled call never started.
    await expect(rateLimited(rate, shared).run(async () => 'ran')).resolves.toBe('ran');
  });

  it('takes one place per call when a run of the same instance is nested in another', async () => {
    const rate = new RequestRate(1);
    const outerRun = rateLimited(rate, new Limiter());
    const nested = rateLimited(rate, outerRun);

    expect(nested).toBe(outerRun);
    await expect(nested.run(async () => 'ran')).resolves.toBe('ran');
  });

  it('reports the limits it holds, and its calls in flight and waiting', async () => {
    const rate = new RequestRate(5);
    const shared = new Limiter({ concurrency: 2, requestsPerMinute: 10 });
    const limiter = rateLimited(rate, shared);
    expect([limiter.concurrency, limiter.requestsPerMinute]).toEqual([2, 5]);
    const gate = new Gate();
    const calls = [
      limiter.run(() => gate.wait()),
      limiter.run(() => gate.wait()),
      limiter.run(() => gate.wait()),
    ];
    await gate.until(2);
    expect([limiter.pending, limiter.waiting]).toEqual([2, 1]);
    gate.open();
    await Promise.all(calls);
    expect([limiter.pending, limiter.waiting]).toEqual([0, 0]);
  });
});
