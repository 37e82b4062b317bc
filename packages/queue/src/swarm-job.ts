import { ConfigError, type SwarmEvent, type TopologyResult } from '@swarm/core';
import { JobTimeoutError } from './queue-errors.js';

/** Options of `job.result`. */
export interface ResultOptions {
  /**
   * Stop waiting after this many milliseconds with a `JobTimeoutError` (the job goes on; call
   * `result()` again to keep waiting). Default: wait until the job finishes or is lost.
   */
  timeoutMs?: number;
}

/**
 * A run enqueued on a `SwarmQueue`: its job id, its result once a worker has finished it, and its
 * trace as the worker publishes it.
 */
export interface SwarmJob<R extends TopologyResult = TopologyResult> {
  /** The BullMQ job id (the `jobId` given to `enqueue`, or one BullMQ chose). */
  readonly id: string;
  /**
   * The topology's result, or a rejection with the worker's error rebuilt as the same `SwarmError`
   * subclass and code (after the retries a retryable error is given). Rejects with `JobLostError`
   * when the job is gone from Redis before it finished, and with `JobTimeoutError` after `timeoutMs`.
   */
  result(options?: ResultOptions): Promise<R>;
  /**
   * The run's events, in order, ending when the job finishes. Workers publish a job's events only
   * once a producer reads them: enqueued with `events: true`, every attempt from its `run.start`;
   * else iterating marks the job as watched and yields the attempt running then (from its
   * `run.start`) and those after it. Iterate as many times as you like.
   */
  events(): AsyncIterable<SwarmEvent>;
}

/** The producer-side state of one job: events seen so far and how it ended. Fed by the queue's event stream. */
export class JobWatch<R extends TopologyResult> implements SwarmJob<R> {
  readonly id: string;
  readonly #queue: string;
  readonly #onWatch: () => Promise<void>;
  #watching: Promise<void> | undefined;
  readonly #events: SwarmEvent[] = [];
  readonly #wakers = new Set<() => void>();
  readonly #result: Promise<R>;
  #settled = false;
  #resolve!: (value: R) => void;
  #reject!: (error: Error) => void;

  constructor(queue: string, id: string, onWatch: () => Promise<void>) {
    this.#queue = queue;
    this.#onWatch = onWatch;
    this.id = id;
    this.#result = new Promise<R>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // result() may never be called (a caller reading events only): keep an unobserved failure quiet.
    this.#result.catch(() => undefined);
  }

  get settled(): boolean {
    return this.#settled;
  }

  result(options: ResultOptions = {}): Promise<R> {
    const { timeoutMs } = options;
    if (timeoutMs === undefined) return this.#result;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
      return Promise.reject(
        new ConfigError(
          `SwarmJob.result: timeoutMs must be a positive number of milliseconds (got ${timeoutMs}).`,
        ),
      );
    }
    if (this.#settled) return this.#result;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => reject(new JobTimeoutError(this.#queue, this.id, timeoutMs)), timeoutMs);
      this.#result.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  async *events(): AsyncIterable<SwarmEvent> {
    if (!this.#settled) await this.watchEvents();
    let index = 0;
    while (true) {
      while (index < this.#events.length) yield this.#events[index++]!;
      if (this.#settled) return;
      await new Promise<void>((wake) => this.#wakers.add(wake));
    }
  }

  /** Marks the job as watched in Redis (once), so that workers publish its events. */
  watchEvents(): Promise<void> {
    this.#watching ??= this.#onWatch().catch((error: unknown) => {
      this.#watching = undefined;
      throw error;
    });
    return this.#watching;
  }

  /** A trace event the worker published (as job progress). */
  event(event: SwarmEvent): void {
    if (this.#settled) return;
    this.#events.push(event);
    this.#wake();
  }

  complete(value: R): void {
    if (this.#settle()) this.#resolve(value);
  }

  fail(error: Error): void {
    if (this.#settle()) this.#reject(error);
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#wake();
    return true;
  }

  #wake(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}
