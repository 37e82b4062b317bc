import {
  ConfigError,
  lazyOpenAIClient,
  ModelError,
  type OpenAIConnectionOptions,
  raceAbort,
  toSwarmError,
  validateProviderOptions,
} from '@swarm/core';
import OpenAI from 'openai';
import type { Embedder } from './embedder.js';

/** Options of `openaiEmbedder`: the same factory serves OpenAI and every OpenAI-compatible server. */
export interface OpenAIEmbedderOptions extends OpenAIConnectionOptions {
  /** Vector length, for models that can shorten their vectors (`text-embedding-3-*`). */
  dimensions?: number;
  /** Per-call timeout in milliseconds (SDK default: 10 minutes). */
  timeoutMs?: number;
  /** Most texts per request (default 2048, OpenAI's limit); `cachedEmbedder` splits larger requests. */
  maxBatchSize?: number;
}

/**
 * An Embedder over the OpenAI embeddings endpoint (`POST /embeddings`) through the `openai` SDK.
 * The client is created at the first call, so a missing key is a ConfigError then, naming its
 * variable, and constructing never touches the network or the environment.
 */
export function openaiEmbedder(model: string, options: OpenAIEmbedderOptions = {}): Embedder {
  validateProviderOptions('openaiEmbedder', model, options);
  const { dimensions, timeoutMs, maxRetries } = options;
  const maxBatchSize = options.maxBatchSize ?? 2048;
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions >= 1)) {
    throw new ConfigError(`openaiEmbedder: dimensions must be an integer >= 1 (got ${dimensions}).`);
  }
  if (!(Number.isInteger(maxBatchSize) && maxBatchSize >= 1)) {
    throw new ConfigError(`openaiEmbedder: maxBatchSize must be an integer >= 1 (got ${maxBatchSize}).`);
  }
  const provider = options.provider ?? 'openai';
  const getClient = lazyOpenAIClient(options);

  return {
    id: `${provider}:${model}`,
    maxBatchSize,
    async embed(texts, embedOptions = {}) {
      if (texts.length === 0) return [];
      const { signal } = embedOptions;
      let response: OpenAI.CreateEmbeddingResponse;
      try {
        response = await raceAbort(
          getClient().embeddings.create(
            {
              model,
              input: texts,
              encoding_format: 'float',
              ...(dimensions !== undefined && { dimensions }),
            },
            {
              ...(signal && { signal }),
              ...(timeoutMs !== undefined && { timeout: timeoutMs }),
              ...(maxRetries !== undefined && { maxRetries }),
            },
          ),
          signal,
          provider,
        );
      } catch (error) {
        throw toSwarmError(error, { provider, signal, sdk: OpenAI });
      }
      const vectors: (Float32Array | undefined)[] = texts.map(() => undefined);
      for (const item of response.data ?? []) {
        if (item.index >= 0 && item.index < texts.length)
          vectors[item.index] = Float32Array.from(item.embedding);
      }
      const missing = vectors.indexOf(undefined);
      if (missing !== -1) {
        throw new ModelError(
          `${provider}: the embeddings response has no vector for input ${missing} of ${texts.length}.`,
          { provider, retryable: true },
        );
      }
      return vectors as Float32Array[];
    },
  };
}
