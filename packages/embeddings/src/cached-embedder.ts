import { ConfigError, ModelError, throwIfAborted } from '@swarm/core';
import type { Embedder, EmbedOptions } from './embedder.js';

/** Options of `cachedEmbedder`. */
export interface CachedEmbedderOptions {
  /** Most texts per call of the wrapped embedder (default: its own `maxBatchSize`, else 2048). */
  maxBatchSize?: number;
  /**
   * Most texts kept (default: unlimited); past it the least recently used are forgotten, so a
   * long-lived cache of ever-new texts (tasks) does not grow without bound.
   */
  maxEntries?: number;
}

/** An Embedder that remembers: see `cachedEmbedder`. */
export interface CachedEmbedder extends Embedder {
  /** The embedder doing the work. */
  readonly inner: Embedder;
  /** How many distinct texts are cached or in flight. */
  readonly size: number;
  /** Forgets every cached vector. */
  clear(): void;
}

/**
 * Wraps an embedder so that each distinct text is embedded once: repeated texts come from the
 * cache, the rest go out in batches of at most `maxBatchSize`, and concurrent requests for the same
 * text share one in-flight call. A failed call is not cached, so the next request tries again.
 */
export function cachedEmbedder(inner: Embedder, options: CachedEmbedderOptions = {}): CachedEmbedder {
  const maxBatchSize = options.maxBatchSize ?? inner.maxBatchSize ?? 2048;
  if (!(maxBatchSize >= 1) || (Number.isFinite(maxBatchSize) && !Number.isInteger(maxBatchSize))) {
    throw new ConfigError(
      `cachedEmbedder: maxBatchSize must be an integer >= 1 or Infinity (got ${maxBatchSize}).`,
    );
  }
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  if (!(maxEntries >= 1) || (Number.isFinite(maxEntries) && !Number.isInteger(maxEntries))) {
    throw new ConfigError(
      `cachedEmbedder: maxEntries must be an integer >= 1 or Infinity (got ${maxEntries}).`,
    );
  }
  // Each entry remembers the signal of the call that embeds it, so a caller can tell a call that
  // another caller cancelled from a failure of its own.
  const cache = new Map<string, { vector: Promise<Float32Array>; signal: AbortSignal | undefined }>();

  const embedBatch = (batch: string[], embedOptions: EmbedOptions) => {
    const call = inner.embed(batch, embedOptions).then((vectors) => {
      if (vectors.length !== batch.length) {
        throw new ModelError(`${inner.id}: returned ${vectors.length} vectors for ${batch.length} texts.`, {
          provider: inner.id,
        });
      }
      return vectors;
    });
    batch.forEach((text, i) => {
      const entry = { vector: call.then((vectors) => vectors[i]!), signal: embedOptions.signal };
      cache.set(text, entry);
      entry.vector.catch(() => {
        if (cache.get(text) === entry) cache.delete(text);
      });
    });
  };

  // Marks `texts` as the most recently used (a Map iterates oldest first), then forgets the least
  // recently used past `maxEntries`. Callers hold their entries already, so eviction never loses a result.
  const keepRecent = (
    texts: string[],
    entries: { vector: Promise<Float32Array>; signal: AbortSignal | undefined }[],
  ) => {
    texts.forEach((text, i) => {
      cache.delete(text);
      cache.set(text, entries[i]!);
    });
    for (const oldest of cache.keys()) {
      if (cache.size <= maxEntries) break;
      cache.delete(oldest);
    }
  };

  return {
    id: inner.id,
    maxBatchSize,
    inner,
    get size() {
      return cache.size;
    },
    clear() {
      cache.clear();
    },
    async embed(texts, embedOptions = {}) {
      const { signal } = embedOptions;
      for (;;) {
        throwIfAborted(signal);
        const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
        for (let start = 0; start < missing.length; start += maxBatchSize) {
          embedBatch(missing.slice(start, start + maxBatchSize), embedOptions);
        }
        const entries = texts.map((text) => cache.get(text)!);
        if (Number.isFinite(maxEntries)) keepRecent(texts, entries);
        try {
          return await Promise.all(entries.map((entry) => entry.vector));
        } catch (error) {
          // A shared call cancelled by another caller's signal is not this caller's failure: the
          // cancelled entries are gone from the cache, so asking again starts a fresh call.
          const cancelledByOther = entries.some((e) => e.signal !== signal && e.signal?.aborted);
          if (signal?.aborted || !cancelledByOther) throw error;
        }
      }
    },
  };
}
