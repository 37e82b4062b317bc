import { Limiter } from '@swarm/core';

/**
 * A limiter that takes a slot of `own` (this topology's `requestsPerMinute`) and then one of
 * `outer` (the run's shared limiter, if any), so both limits hold; waiting is queueing, never a sleep.
 */
class ChainedLimiter extends Limiter {
  readonly #own: Limiter;
  readonly #outer: Limiter;

  constructor(own: Limiter, outer: Limiter) {
    super();
    this.#own = own;
    this.#outer = outer;
  }

  override get pending(): number {
    return this.#own.pending;
  }

  override get waiting(): number {
    return this.#own.waiting + this.#outer.waiting;
  }

  override run<T>(fn: () => Promise<T>, options: { signal?: AbortSignal } = {}): Promise<T> {
    return this.#own.run(() => this.#outer.run(fn, options), options);
  }
}

/** The limiter a run should use: `own` alone, or `own` chained before the shared `outer` one. */
export function withRateLimit(own: Limiter, outer: Limiter | undefined): Limiter {
  return outer === undefined || outer === own ? own : new ChainedLimiter(own, outer);
}
