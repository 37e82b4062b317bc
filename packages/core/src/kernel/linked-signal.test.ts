import { AsyncLocalStorage } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortError } from './errors.js';
import { abortableDelay, linkSignal, raceSignal } from './linked-signal.js';

const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

describe('linkSignal', () => {
  it('follows its parent with one listener, removed on release', () => {
    const parent = new AbortController();
    const linked = linkSignal(parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    linked.release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    parent.abort();
    expect(linked.signal.aborted).toBe(false);
  });

  it('fires with the parent and says so', () => {
    const parent = new AbortController();
    const linked = linkSignal(parent.signal, 60_000);
    parent.abort('stop');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('stop');
    expect(linked.cause).toBe('parent');
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it('fires on its own timeout as a real AbortSignal, and a release clears the timer', async () => {
    const linked = linkSignal(undefined, 5);
    const fired: string[] = [];
    linked.signal.addEventListener('abort', () => fired.push('listener'));
    expect(linked.signal).toBeInstanceOf(AbortSignal);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.cause).toBe('timeout');
    expect(fired).toEqual(['listener']);
    expect(() => linked.signal.throwIfAborted()).toThrow(/Timed out after 5 ms/);

    const before = timers();
    const released = linkSignal(undefined, 60_000);
    expect(timers()).toBe(before + 1);
    released.release();
    expect(timers()).toBe(before);
    expect(released.signal.aborted).toBe(false);
  });

  it('makes no timer for an infinite time', () => {
    const before = timers();
    const linked = linkSignal(undefined, Number.POSITIVE_INFINITY);
    expect(timers()).toBe(before);
    linked.release();
  });

  it('is aborted at once, with no listener and no timer, under a parent already aborted', () => {
    const before = timers();
    const parent = new AbortController();
    parent.abort('early');
    const linked = linkSignal(parent.signal, 60_000);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('early');
    expect(linked.cause).toBe('parent');
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    expect(timers()).toBe(before);
    linked.release();
  });
});

describe('abortableDelay', () => {
  it('waits, then resolves', async () => {
    await expect(abortableDelay(1, undefined)).resolves.toBeUndefined();
  });

  it('rejects with AbortError at the abort, clearing its timer and listener', async () => {
    const controller = new AbortController();
    const before = timers();
    const wait = abortableDelay(60_000, controller.signal);
    controller.abort();
    await expect(wait).rejects.toBeInstanceOf(AbortError);
    expect(timers()).toBeLessThanOrEqual(before);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once on an aborted signal', async () => {
    await expect(abortableDelay(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(AbortError);
  });
});

describe('raceSignal', () => {
  it('settles like the work and removes its listener', async () => {
    const controller = new AbortController();
    await expect(raceSignal(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceSignal(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with AbortError when the signal fires first, whatever the work does', async () => {
    const controller = new AbortController();
    const race = raceSignal(new Promise<never>(() => undefined), controller.signal);
    controller.abort();
    await expect(race).rejects.toBeInstanceOf(AbortError);
    await expect(raceSignal(Promise.resolve(1), AbortSignal.abort())).rejects.toBeInstanceOf(AbortError);
  });
});

describe('linkSignal timeouts (one timer per timeout length)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('serves any number of links of one length with one timer, which keeps nothing alive once the last is released', () => {
    const before = timers();
    const links = Array.from({ length: 100 }, () => linkSignal(undefined, 54_321));
    expect(timers()).toBe(before + 1);
    for (const link of links.slice(0, 99)) link.release();
    expect(timers()).toBe(before + 1);
    links[99]!.release();
    expect(timers()).toBe(before);
  });

  it('times each link out at its own time, in order, a released one never', async () => {
    const before = timers();
    const fired: string[] = [];
    const firedAt = new Map<string, number>();
    const watch = (name: string) => {
      const link = linkSignal(undefined, 40);
      link.signal.addEventListener('abort', () => {
        fired.push(name);
        firedAt.set(name, performance.now());
      });
      return link;
    };
    const first = watch('first');
    await sleep(25);
    const thirdMade = performance.now();
    const released = watch('released');
    const third = watch('third');
    first.release(); // the link the timer was set for goes: the others still fire on time
    released.release();
    await vi.waitFor(() => expect(fired).toEqual(['third']), { timeout: 5_000, interval: 5 });
    // Never before its own time (the timer was set for the released first link's, 25 ms sooner);
    // a loaded machine may only make it later.
    expect(firedAt.get('third')! - thirdMade).toBeGreaterThanOrEqual(39);
    expect(third.cause).toBe('timeout');
    await sleep(60);
    expect(fired).toEqual(['third']);
    expect(first.signal.aborted).toBe(false);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('times out under fake timers, which may leave the clock be, after real calls of the same length', async () => {
    for (const toFake of [undefined, ['setTimeout', 'clearTimeout'] as const]) {
      linkSignal(undefined, 600_000).release(); // leaves the length's timer idle, a real one
      vi.useFakeTimers(toFake === undefined ? undefined : { toFake: [...toFake] });
      const made = performance.now();
      const link = linkSignal(undefined, 600_000);
      const later = linkSignal(undefined, 600_000);
      // With a real clock (setTimeout faked alone) the two deadlines are as far apart as the real
      // time between the two calls, which a loaded machine can stretch past a few milliseconds.
      const apart = Math.ceil(performance.now() - made) + 1;
      vi.advanceTimersByTime(599_999);
      expect(link.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(link.signal.aborted).toBe(true);
      vi.advanceTimersByTime(apart);
      expect(later.signal.aborted).toBe(true);
      vi.useRealTimers();
    }
  });

  it('runs a time-out in the async context the link was made in, not the one that set the timer', async () => {
    const store = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const links = ['first call', 'second call'].map((name) =>
      store.run(name, () => {
        const link = linkSignal(undefined, 20);
        link.signal.addEventListener('abort', () => seen.push(store.getStore()));
        return link;
      }),
    );
    await sleep(60);
    expect(seen).toEqual(['first call', 'second call']);
    for (const link of links) link.release();
  });
});

describe('linkSignal in a browser (no async_hooks, timers that are numbers)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('times links out in order, and keeps its idle timer without ref() or unref()', async () => {
    const original = process.getBuiltinModule;
    const asked: string[] = [];
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) => {
      asked.push(id);
      return id === 'node:async_hooks' ? undefined : original(id);
    }) as typeof original);
    // A browser's setTimeout returns a number, which has no ref() or unref() to call.
    const realSetTimeout = setTimeout;
    vi.stubGlobal('setTimeout', (work: (queue: unknown) => void, ms: number, queue: unknown) =>
      Number(realSetTimeout(work, ms, queue)),
    );
    vi.resetModules();
    const fresh = (await import('./linked-signal.js')) as typeof import('./linked-signal.js');
    expect(asked).toContain('node:async_hooks');

    const fired: string[] = [];
    const watch = (name: string) => {
      const link = fresh.linkSignal(undefined, 20);
      link.signal.addEventListener('abort', () => fired.push(name));
      return link;
    };
    // Released at once: the length's timer goes idle (unref'd in Node), then serves the next links.
    watch('released').release();
    const first = watch('first');
    const second = watch('second');
    await new Promise((resolve) => realSetTimeout(resolve, 60));
    expect(fired).toEqual(['first', 'second']);
    expect([first.cause, second.cause]).toEqual(['timeout', 'timeout']);
    expect(first.signal.reason).toEqual(new Error('Timed out after 20 ms.'));
  });
});
