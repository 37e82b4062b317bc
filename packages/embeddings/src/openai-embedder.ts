import {
  ConfigError,
  callWithRetries,
  ModelError,
  type OpenAIConnectionOptions,
  type OpenAIEmbeddingParams,
  type OpenAIEmbeddingResponse,
  type OpenAIEmbeddingsClient,
  openaiCallSetup,
  type ProviderCallOptions,
  validateProviderOptions,
} from '@swarm/core';
import type { Embedder } from './embedder.js';

/**
 * Options of `openaiEmbedder`: the same factory serves OpenAI and every OpenAI-compatible server.
 * Retries, timeouts and waits follow `ProviderCallOptions`, as for chat models (the SDK's own
 * retries are off).
 */
export interface OpenAIEmbedderOptions extends OpenAIConnectionOptions, ProviderCallOptions {
  /** Vector length, for models that can shorten their vectors (`text-embedding-3-*`). */
  dimensions?: number;
  /** Most texts per request (default 2048, OpenAI's limit); `cachedEmbedder` splits larger requests. */
  maxBatchSize?: number;
  /**
   * A ready client, used as is (key and endpoint options are then ignored): an `openai` 6 or 7
   * client, or anything with the shape of `OpenAIEmbeddingsClient`.
   */
  client?: OpenAIEmbeddingsClient;
}

/**
 * An Embedder over the OpenAI embeddings endpoint (`POST /embeddings`) through the `openai` SDK.
 * The client is created at the first call, so a missing key is a ConfigError then, naming its
 * variable, and constructing never touches the network or the environment. Every request runs
 * through core's `callWithRetries`: each attempt on its own signal (the caller's keeps no listener),
 * ended at `timeoutMs` (body included), Retry-After bounded by `maxRetryDelayMs`, the whole call by
 * `deadlineMs`.
 */
export function openaiEmbedder(model: string, options: OpenAIEmbedderOptions = {}): Embedder {
  validateProviderOptions('openaiEmbedder', model, options);
  const { dimensions } = options;
  const maxBatchSize = options.maxBatchSize ?? 2048;
  if (dimensions !== undefined && !(Number.isInteger(dimensions) && dimensions >= 1)) {
    throw new ConfigError(`openaiEmbedder: dimensions must be an integer >= 1 (got ${dimensions}).`);
  }
  if (!(Number.isInteger(maxBatchSize) && maxBatchSize >= 1)) {
    throw new ConfigError(`openaiEmbedder: maxBatchSize must be an integer >= 1 (got ${maxBatchSize}).`);
  }
  const provider = options.provider ?? 'openai';
  const { policy, getClient, requestOptions, classify } = openaiCallSetup(provider, options);

  return {
    id: `${provider}:${model}`,
    maxBatchSize,
    async embed(texts, embedOptions = {}) {
      if (texts.length === 0) return [];
      const params: OpenAIEmbeddingParams = {
        model,
        input: texts,
        encoding_format: 'float',
        ...(dimensions !== undefined && { dimensions }),
      };
      // A response missing a vector throws inside the attempt: a retryable fault, retried like a
      // chat completion without choices.
      // callWithRetries ends an attempt when its signal fires, whether or not the client heeds it.
      return callWithRetries(
        policy,
        embedOptions.signal,
        classify,
        (signal) => {
          const client: OpenAIEmbeddingsClient = getClient();
          return client.embeddings.create(params, requestOptions(client, signal));
        },
        (response) => toVectors(response, texts.length, provider),
      );
    },
  };
}

/** One vector per input, in input order; a missing one is a retryable ModelError. */
function toVectors(response: OpenAIEmbeddingResponse, count: number, provider: string): Float32Array[] {
  const vectors: (Float32Array | undefined)[] = new Array(count).fill(undefined);
  for (const item of response.data ?? []) {
    if (item.index >= 0 && item.index < count) vectors[item.index] = Float32Array.from(item.embedding);
  }
  const missing = vectors.indexOf(undefined);
  if (missing !== -1) {
    throw new ModelError(
      `${provider}: the embeddings response has no vector for input ${missing} of ${count}.`,
      { provider, retryable: true },
    );
  }
  return vectors as Float32Array[];
}
