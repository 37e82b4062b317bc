import { Limiter, type RunLimiter, throwIfAborted } from '@swarm/core';

const MINUTE = 60_000;

/** A call's place in a `RequestRate`: `start` counts it as it begins, `release` gives an unused place back. */
interface Place {
  start(): void;
  release(): void;
}

/**
 * The `requestsPerMinute` of one topology instance, shared by all its runs: a rolling minute of the
 * model calls they started. A call takes its place before it waits for any other limiter and is
 * counted when it really starts; a place taken and not yet used counts as a start now. So however
 * long a shared limiter delays a call, no minute sees more than `requestsPerMinute` starts (two
 * chained core Limiters cannot promise that: each counts a call when it grants the slot, not when
 * the call starts). Waiting is queueing, first come first served, never a sleep; the one timer
 * runs only while a call waits for the oldest start to leave the minute.
 */
export class RequestRate {
  /** Start times within the last minute, oldest first. */
  readonly #starts: number[] = [];
  /** Places taken by calls that have not started yet. */
  #taken = 0;
  readonly #queue: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly requestsPerMinute: number) {}

  /** Calls waiting for a place. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Waits for a place in the minute; an abort while waiting rejects with `AbortError` and frees nothing. */
  async take(signal?: AbortSignal): Promise<Place> {
    throwIfAborted(signal);
    if (this.#queue.length > 0 || !this.#hasRoom()) {
      await new Promise<void>((resolve, reject) => {
        const admit = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.#queue.splice(this.#queue.indexOf(admit), 1);
          this.#pump();
          try {
            throwIfAborted(signal);
          } catch (error) {
            reject(error);
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#queue.push(admit);
        this.#pump();
      });
    } else {
      this.#taken += 1;
    }
    let state: 'taken' | 'started' | 'released' = 'taken';
    return {
      start: () => {
        if (state !== 'taken') return;
        state = 'started';
        this.#taken -= 1;
        this.#starts.push(Date.now());
        // Waiting calls now wait for this start to leave the minute.
        this.#pump();
      },
      release: () => {
        if (state !== 'taken') return;
        state = 'released';
        this.#taken -= 1;
        this.#pump();
      },
    };
  }

  #hasRoom(): boolean {
    const since = Date.now() - MINUTE;
    while (this.#starts.length > 0 && this.#starts[0]! <= since) this.#starts.shift();
    return this.#starts.length + this.#taken < this.requestsPerMinute;
  }

  // Admits waiting calls while there is room; else, if a start blocks them, wakes when it ages out.
  #pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#queue.length > 0 && this.#hasRoom()) {
      this.#taken += 1;
      this.#queue.shift()!();
    }
    // With no start to wait for, the places taken free room when they start or are released.
    if (this.#queue.length === 0 || this.#starts.length === 0) return;
    this.#timer = setTimeout(() => this.#pump(), this.#starts[0]! + MINUTE - Date.now());
  }
}

/**
 * The limiter of a run: a place in `rate` first, then a slot of the run's shared limiter (if any);
 * the call counts in `rate` when the shared limiter lets it start.
 */
class RateLimitedLimiter extends Limiter {
  readonly #rate: RequestRate;
  readonly #outer: RunLimiter | undefined;
  #running = 0;

  constructor(rate: RequestRate, outer: RunLimiter | undefined) {
    const rpm = Math.min(rate.requestsPerMinute, outer?.requestsPerMinute ?? Number.POSITIVE_INFINITY);
    super({ concurrency: outer?.concurrency ?? Number.POSITIVE_INFINITY, requestsPerMinute: rpm });
    this.#rate = rate;
    this.#outer = outer;
  }

  /** Whether `rate` is this limiter's or one it chains to (a run nested in a run of the same instance). */
  holds(rate: RequestRate): boolean {
    return this.#rate === rate || (this.#outer instanceof RateLimitedLimiter && this.#outer.holds(rate));
  }

  /** Calls of this run in flight now. */
  override get pending(): number {
    return this.#running;
  }

  /** Calls waiting for a place in the rate, and calls waiting in the shared limiter. */
  override get waiting(): number {
    return this.#rate.waiting + (this.#outer?.waiting ?? 0);
  }

  override async run<T>(fn: () => Promise<T>, options: { signal?: AbortSignal } = {}): Promise<T> {
    const place = await this.#rate.take(options.signal);
    const started = async () => {
      place.start();
      this.#running += 1;
      try {
        return await fn();
      } finally {
        this.#running -= 1;
      }
    };
    try {
      return await (this.#outer ? this.#outer.run(started, options) : started());
    } finally {
      place.release();
    }
  }
}

/**
 * The limiter a run should use: `rate`, then the run's shared `outer` limiter when there is one.
 * When `outer` already holds `rate` (a run nested in a run of the same instance), it is `outer`:
 * a call taking two places in one rate could wait for itself.
 */
export function rateLimited(rate: RequestRate, outer: RunLimiter | undefined): Limiter {
  if (outer instanceof RateLimitedLimiter && outer.holds(rate)) return outer;
  return new RateLimitedLimiter(rate, outer);
}
