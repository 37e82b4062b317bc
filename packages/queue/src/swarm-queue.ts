import { randomUUID } from 'node:crypto';
import {
  AbortError,
  ConfigError,
  mapSettled,
  type Settled,
  type SwarmEvent,
  type TopologyResult,
} from '@swarm/core';
import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { checkQueueName, type RedisConnection, redisOptions } from './connection.js';
import type { QueuedRunOptions, SwarmJobData } from './job-data.js';
import { decodeFailedReason } from './serialized-error.js';
import { JobWatch, type SwarmJob } from './swarm-job.js';

/** Options of `new SwarmQueue`. */
export interface SwarmQueueOptions {
  /** The queue's name; workers started with the same name and Redis run its jobs. */
  name: string;
  /** Where Redis is. */
  connection: RedisConnection;
  /** Attempts a job gets when its error is retryable (`ModelError.retryable`); default 3. */
  attempts?: number;
  /** Backoff between those attempts: exponential from `delayMs` (default 1,000), or fixed. */
  backoff?: { type: 'exponential' | 'fixed'; delayMs: number };
  /**
   * How many finished jobs Redis keeps (default: all, BullMQ's default). An idempotent `jobId`
   * holds only while its job is kept.
   */
  keepJobs?: { completed?: number; failed?: number };
}

/** Options of `queue.enqueue`. */
export interface EnqueueOptions {
  /** The conversation the run continues (passed to the topology's `run` as `sessionId`). */
  sessionId?: string;
  /** Makes enqueueing idempotent: a second enqueue with this id returns the same job (and result). */
  jobId?: string;
  /** JSON-only run options for the worker's `topology.run` (a `budget`, say). */
  runOptions?: QueuedRunOptions;
}

/** Options of `queue.batchedRun`. */
export interface BatchedRunOptions {
  /** At most this many of the batch's jobs enqueued and unfinished at a time (default: all at once). */
  concurrency?: number;
  /** JSON-only run options given to every run of the batch. */
  runOptions?: QueuedRunOptions;
}

/**
 * The producer side: enqueues runs of topologies (by name) for the workers of the same queue name,
 * wherever they are, and hands back their results and traces.
 */
export class SwarmQueue {
  readonly name: string;
  readonly #queue: Queue<SwarmJobData, TopologyResult>;
  readonly #connection: ReturnType<typeof redisOptions>;
  readonly #watches = new Map<string, Set<JobWatch<TopologyResult>>>();
  readonly #jobOptions: JobsOptions;
  #events: Promise<QueueEvents> | undefined;
  #closed = false;

  constructor(options: SwarmQueueOptions) {
    if (typeof options !== 'object' || options === null)
      throw new ConfigError('SwarmQueue: options are required.');
    this.name = checkQueueName(options.name, 'SwarmQueue');
    this.#connection = redisOptions(options.connection, 'SwarmQueue');
    const attempts = options.attempts ?? 3;
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new ConfigError(`SwarmQueue: attempts must be an integer >= 1 (got ${attempts}).`);
    }
    const backoff = options.backoff ?? { type: 'exponential', delayMs: 1_000 };
    if (!['exponential', 'fixed'].includes(backoff.type) || !(backoff.delayMs >= 0)) {
      throw new ConfigError(
        `SwarmQueue: backoff must be { type: 'exponential' | 'fixed', delayMs >= 0 } (got ${JSON.stringify(backoff)}).`,
      );
    }
    const keep = options.keepJobs ?? {};
    for (const [state, count] of Object.entries(keep)) {
      if (count !== undefined && (!Number.isInteger(count) || count < 0)) {
        throw new ConfigError(`SwarmQueue: keepJobs.${state} must be an integer >= 0 (got ${count}).`);
      }
    }
    this.#jobOptions = {
      attempts,
      backoff: { type: backoff.type, delay: backoff.delayMs },
      ...(keep.completed !== undefined && { removeOnComplete: { count: keep.completed } }),
      ...(keep.failed !== undefined && { removeOnFail: { count: keep.failed } }),
    };
    this.#queue = new Queue(this.name, { connection: this.#connection });
  }

  /**
   * Enqueues one run of the topology registered as `topologyName` on the workers. Resolves once the
   * job is stored in Redis; the returned job's `result()` settles when a worker has finished it.
   */
  async enqueue<R extends TopologyResult = TopologyResult>(
    topologyName: string,
    task: string,
    options: EnqueueOptions = {},
  ): Promise<SwarmJob<R>> {
    const data = this.#jobData(topologyName, task, options, 'enqueue');
    if (options.jobId !== undefined && (typeof options.jobId !== 'string' || options.jobId === '')) {
      throw new ConfigError('SwarmQueue.enqueue: jobId must be a non-empty string.');
    }
    await this.#listening();
    // Watch before adding, so that no event of the job can pass unseen.
    const jobId = options.jobId ?? randomUUID();
    const watch = this.#watch<R>(jobId);
    await this.#queue.add(topologyName, data, { ...this.#jobOptions, jobId }).catch((error: Error) => {
      watch.fail(error);
      throw error;
    });
    // A job given by id may have finished before (an idempotent re-enqueue): it sends no more events.
    if (options.jobId !== undefined) await this.#settleIfFinished(watch);
    return watch;
  }

  /**
   * Runs every task through the topology on the workers and returns settled results in input
   * order: one failed run never loses the others.
   */
  async batchedRun<R extends TopologyResult = TopologyResult>(
    topologyName: string,
    tasks: readonly string[],
    options: BatchedRunOptions = {},
  ): Promise<Settled<R>[]> {
    if (!Array.isArray(tasks))
      throw new ConfigError('SwarmQueue.batchedRun: tasks must be an array of strings.');
    const { concurrency } = options;
    if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
      throw new ConfigError(
        `SwarmQueue.batchedRun: concurrency must be an integer >= 1 (got ${concurrency}).`,
      );
    }
    const data = tasks.map((task) =>
      this.#jobData(topologyName, task, { runOptions: options.runOptions }, 'batchedRun'),
    );
    await this.#listening();
    const settle = async (jobs: SwarmJob<R>[]) =>
      Promise.all(
        jobs.map((job) =>
          job.result().then(
            (value): Settled<R> => ({ status: 'fulfilled', value }),
            (reason: unknown): Settled<R> => ({ status: 'rejected', reason }),
          ),
        ),
      );
    if (concurrency !== undefined) {
      // A sliding window: the next task is enqueued as soon as one of the window finishes.
      return mapSettled(
        tasks,
        async (task) =>
          (await this.enqueue<R>(topologyName, task, { runOptions: options.runOptions })).result(),
        { concurrency },
      );
    }
    // All at once, in one round trip.
    const watches = data.map(() => this.#watch<R>(randomUUID()));
    await this.#queue
      .addBulk(
        data.map((item, i) => ({
          name: topologyName,
          data: item,
          opts: { ...this.#jobOptions, jobId: watches[i]!.id },
        })),
      )
      .catch((error: Error) => {
        for (const watch of watches) watch.fail(error);
        throw error;
      });
    return settle(watches);
  }

  /** Counts of the queue's jobs by state (waiting, active, completed, failed, delayed). */
  async counts(): Promise<Record<string, number>> {
    return this.#queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');
  }

  /**
   * Closes the queue's Redis connections. Jobs keep running on the workers; results not received
   * yet reject here with `AbortError`.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const watches of this.#watches.values()) {
      for (const watch of watches)
        watch.fail(new AbortError(`SwarmQueue "${this.name}" closed before job ${watch.id} finished.`));
    }
    this.#watches.clear();
    const events = this.#events;
    this.#events = undefined;
    await Promise.all([
      this.#queue.close(),
      events?.then(
        (e) => e.close(),
        () => undefined,
      ),
    ]);
  }

  #jobData(topologyName: string, task: string, options: EnqueueOptions, method: string): SwarmJobData {
    if (this.#closed) throw new ConfigError(`SwarmQueue.${method}: the queue is closed.`);
    if (typeof topologyName !== 'string' || topologyName === '') {
      throw new ConfigError(`SwarmQueue.${method}: topologyName must be a non-empty string.`);
    }
    if (typeof task !== 'string') throw new ConfigError(`SwarmQueue.${method}: every task must be a string.`);
    if (
      options.sessionId !== undefined &&
      (typeof options.sessionId !== 'string' || options.sessionId === '')
    ) {
      throw new ConfigError(`SwarmQueue.${method}: sessionId must be a non-empty string.`);
    }
    if (options.runOptions !== undefined) {
      try {
        JSON.stringify(options.runOptions);
      } catch (error) {
        throw new ConfigError(`SwarmQueue.${method}: runOptions must be JSON (a budget, say).`, {
          cause: error,
        });
      }
    }
    return {
      topology: topologyName,
      task,
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.runOptions !== undefined ? { runOptions: options.runOptions } : {}),
    };
  }

  #watch<R extends TopologyResult>(id: string): JobWatch<R> {
    // Stored untyped: the stream hands back whatever the worker's topology returned.
    const watch = new JobWatch<R>(id) as unknown as JobWatch<TopologyResult>;
    const watches = this.#watches.get(id) ?? new Set();
    this.#watches.set(id, watches);
    watches.add(watch);
    watch.result().then(
      () => this.#unwatch(watch),
      () => this.#unwatch(watch),
    );
    return watch as unknown as JobWatch<R>;
  }

  #unwatch(watch: JobWatch<TopologyResult>): void {
    const watches = this.#watches.get(watch.id);
    watches?.delete(watch);
    if (watches?.size === 0) this.#watches.delete(watch.id);
  }

  // A job that had already finished (an idempotent re-enqueue) sends no more events: read its state.
  async #settleIfFinished<R extends TopologyResult>(watch: JobWatch<R>): Promise<void> {
    // The state first: a job read while still active has no return value yet.
    const state = await this.#queue.getJobState(watch.id);
    if (state !== 'completed' && state !== 'failed') return;
    const job = await this.#queue.getJob(watch.id);
    if (!job) return;
    if (state === 'completed') watch.complete(job.returnvalue as R);
    else watch.fail(decodeFailedReason(job.failedReason));
  }

  // One reader of the queue's event stream for every job of this producer, started from the
  // stream's current end so that nothing published after an enqueue is missed.
  #listening(): Promise<QueueEvents> {
    this.#events ??= (async () => {
      const client = new Redis({ ...this.#connection, lazyConnect: true, maxRetriesPerRequest: 3 });
      let lastEventId = '0-0';
      try {
        await client.connect();
        const tail = await client.xrevrange(this.#queue.keys.events!, '+', '-', 'COUNT', 1);
        lastEventId = tail[0]?.[0] ?? '0-0';
      } finally {
        client.disconnect();
      }
      const events = new QueueEvents(this.name, { connection: this.#connection, lastEventId });
      events.on('progress', ({ jobId, data }) => {
        if (isSwarmEvent(data)) for (const watch of this.#watches.get(jobId) ?? []) watch.event(data);
      });
      events.on('completed', ({ jobId, returnvalue }) => {
        for (const watch of this.#watches.get(jobId) ?? [])
          watch.complete(returnvalue as unknown as TopologyResult);
      });
      events.on('failed', ({ jobId, failedReason }) => {
        for (const watch of this.#watches.get(jobId) ?? []) watch.fail(decodeFailedReason(failedReason));
      });
      await events.waitUntilReady();
      return events;
    })();
    return this.#events;
  }
}

function isSwarmEvent(data: unknown): data is SwarmEvent {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}
