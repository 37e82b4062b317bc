import { AbortError, ConfigError, ModelError } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { cachedEmbedder } from './cached-embedder.js';
import type { Embedder } from './embedder.js';

/** A fake embedder that records each batch it was asked for and can be held at a gate. */
function recordingEmbedder(options: { gate?: Gate; failOnce?: boolean } = {}) {
  const calls: string[][] = [];
  let failures = options.failOnce ? 1 : 0;
  const inner: Embedder = {
    id: 'recording',
    async embed(texts) {
      calls.push([...texts]);
      await options.gate?.wait();
      if (failures > 0) {
        failures--;
        throw new ModelError('provider down', { provider: 'recording' });
      }
      return texts.map((text) => Float32Array.of(text.length, 1));
    },
  };
  return { inner, calls };
}

describe('cachedEmbedder', () => {
  it('embeds each distinct text once, however often it is asked for', async () => {
    const { inner, calls } = recordingEmbedder();
    const cached = cachedEmbedder(inner);
    const first = await cached.embed(['a', 'bb', 'a']);
    const second = await cached.embed(['bb', 'ccc']);
    expect(calls).toEqual([['a', 'bb'], ['ccc']]);
    expect(first.map((v) => v[0])).toEqual([1, 2, 1]);
    expect(second.map((v) => v[0])).toEqual([2, 3]);
  });

  it('splits a large request into batches of at most maxBatchSize', async () => {
    const { inner, calls } = recordingEmbedder();
    const cached = cachedEmbedder(inner, { maxBatchSize: 2 });
    await cached.embed(['a', 'b', 'c', 'd', 'e']);
    expect(calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('lets concurrent requests for the same text share one in-flight call', async () => {
    const gate = new Gate();
    const { inner, calls } = recordingEmbedder({ gate });
    const cached = cachedEmbedder(inner);
    const one = cached.embed(['same', 'x']);
    const two = cached.embed(['same']);
    await gate.until(1);
    gate.open();
    const [[a], [b]] = await Promise.all([one, two]);
    expect(calls).toEqual([['same', 'x']]);
    expect(a).toBe(b);
  });

  it("does not fail a shared request when only another caller's signal cancels the call", async () => {
    const calls: string[][] = [];
    // Honours its signal like a remote embedder: an aborted call rejects at once.
    const inner: Embedder = {
      id: 'abortable',
      embed: (texts, options) =>
        new Promise((resolve, reject) => {
          calls.push([...texts]);
          options?.signal?.addEventListener('abort', () => reject(new AbortError()));
          setTimeout(() => resolve(texts.map(() => Float32Array.of(1, 0))), 20);
        }),
    };
    const cached = cachedEmbedder(inner);
    const controller = new AbortController();
    const impatient = cached.embed(['same'], { signal: controller.signal });
    const patient = cached.embed(['same']);
    controller.abort();
    await expect(impatient).rejects.toBeInstanceOf(AbortError);
    await expect(patient).resolves.toHaveLength(1);
    expect(calls).toEqual([['same'], ['same']]);
  });

  it('does not cache a failure: the error reaches the caller and the next request tries again', async () => {
    const { inner, calls } = recordingEmbedder({ failOnce: true });
    const cached = cachedEmbedder(inner);
    await expect(cached.embed(['a'])).rejects.toThrow('provider down');
    await expect(cached.embed(['a'])).resolves.toHaveLength(1);
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('treats a wrong number of vectors as an error, not a silent gap', async () => {
    const cached = cachedEmbedder({ id: 'short', embed: async () => [] });
    await expect(cached.embed(['a'])).rejects.toThrow(/returned 0 vectors for 1 texts/);
  });

  it('forgets the least recently used texts past maxEntries', async () => {
    const { inner, calls } = recordingEmbedder();
    const e = cachedEmbedder(inner, { maxEntries: 2 });
    await e.embed(['a', 'b']);
    await e.embed(['a']); // a is now the most recent
    await e.embed(['c']); // b, the least recent, is forgotten
    expect(e.size).toBe(2);
    await e.embed(['a', 'c']);
    await e.embed(['b']);
    expect(calls).toEqual([['a', 'b'], ['c'], ['b']]);
    expect(() => cachedEmbedder(inner, { maxEntries: 0 })).toThrow(/maxEntries must be an integer >= 1/);
  });

  it('rejects a maxBatchSize below 1', () => {
    expect(() => cachedEmbedder(recordingEmbedder().inner, { maxBatchSize: 0 })).toThrow(ConfigError);
  });
});
