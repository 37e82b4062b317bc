import PQueue from 'p-queue';
import type { RunLimiter } from '../contracts/run.js';
import { ConfigError, throwIfAborted } from './errors.js';

/** Options of a Limiter: how many calls at once, and optionally how many per minute. */
export interface LimiterOptions {
  /** Calls in flight at once (default: unlimited). */
  concurrency?: number;
  /** Calls started in any rolling minute (default: unlimited). */
  requestsPerMinute?: number;
}

/**
 * A shared concurrency and rate limit over p-queue. Give one Limiter to many runs and topologies so
 * that together they stay under a provider's limits.
 */
export class Limiter implements RunLimiter {
  readonly concurrency: number;
  readonly requestsPerMinute: number | undefined;
  readonly #queue: PQueue;

  constructor(options: LimiterOptions = {}) {
    const { concurrency = Number.POSITIVE_INFINITY, requestsPerMinute } = options;
    if (!(concurrency >= 1) || (Number.isFinite(concurrency) && !Number.isInteger(concurrency))) {
      throw new ConfigError(`Limiter: concurrency must be an integer >= 1 (got ${concurrency}).`);
    }
    if (requestsPerMinute !== undefined && !(Number.isInteger(requestsPerMinute) && requestsPerMinute >= 1)) {
      throw new ConfigError(`Limiter: requestsPerMinute must be an integer >= 1 (got ${requestsPerMinute}).`);
    }
    this.concurrency = concurrency;
    this.requestsPerMinute = requestsPerMinute;
    this.#queue = new PQueue(
      requestsPerMinute === undefined
        ? { concurrency }
        : { concurrency, intervalCap: requestsPerMinute, interval: 60_000, strict: true },
    );
  }

  /** Calls in flight now. */
  get pending(): number {
    return this.#queue.pending;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Runs `fn` when a slot is free; a call still waiting when `signal` fires never starts. */
  async run<T>(fn: () => Promise<T>, options: { signal?: AbortSignal } = {}): Promise<T> {
    const { signal } = options;
    throwIfAborted(signal);
    try {
      return await this.#queue.add(() => fn(), signal ? { signal } : {});
    } catch (error) {
      throwIfAborted(signal);
      throw error;
    }
  }
}
