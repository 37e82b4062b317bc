import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
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

  it('starts aborted under an aborted parent', () => {
    const linked = linkSignal(AbortSignal.abort('gone'));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.cause).toBe('parent');
  });

  it('fires on its own timeout, and a release clears the timer', async () => {
    const linked = linkSignal(undefined, 5);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(linked.signal.aborted).toBe(true);
    expect(linked.cause).toBe('timeout');

    const before = timers();
    const released = linkSignal(undefined, 60_000);
    expect(timers()).toBe(before + 1);
    released.release();
    expect(timers()).toBe(before);
    expect(released.signal.aborted).toBe(false);
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
