/** Per-call options of `embed`. */
export interface EmbedOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors, one per text and in the same order. Every embedder (remote, local,
 * cached) has this one shape, so routing code never knows which it was given.
 */
export interface Embedder {
  /** Names the embedder and its model, e.g. `'openai:text-embedding-3-small'` or `'local'`. */
  readonly id: string;
  /** The most texts one `embed` call should carry; `cachedEmbedder` splits larger requests. */
  readonly maxBatchSize?: number;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}
