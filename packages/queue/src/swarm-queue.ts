import { randomUUID } from 'node:crypto';
import {
  AbortError,
  ApprovalConflictError,
  type Approvals,
  ConfigError,
  describeZodError,
  errorMessage,
  mapSettled,
  RunPausedError,
  type Settled,
  type SwarmEvent,
  type TopologyResult,
  validateRunId,
} from '@swarm/core';
import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { checkQueueName, type RedisConnection, redisOptions } from './connection.js';
import { watchJob } from './event-watch.js';
import {
  approvalsSchema,
  jobDataProblems,
  type QueuedRunOptions,
  type SwarmJobData,
  swarmJobDataSchema,
} from './job-data.js';
import { JobLostError } from './queue-errors.js';
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
  /**
   * How often the producer checks that the jobs it waits for are still in Redis (default 5,000 ms).
   * A job gone before it finished (Redis flushed, a key evicted, the job removed) rejects its
   * `result()` with `JobLostError` instead of leaving it waiting for ever.
   */
  checkIntervalMs?: number;
}

/** Options of `queue.enqueue`. */
export interface EnqueueOptions {
  /** The conversation the run continues (passed to the topology's `run` as `sessionId`). */
  sessionId?: string;
  /** Makes enqueueing idempotent: a second enqueue with this id returns the same job (and result). */
  jobId?: string;
  /** JSON-only run options for the worker's `topology.run` (a `budget`, say). */
  runOptions?: QueuedRunOptions;
  /**
   * You will read `job.events()`: the job is marked watched before it is added, so its first
   * attempt publishes from `run.start` however fast a worker takes it. Without it, workers publish
   * nothing until `events()` is called, and a job that finished before then yields no events.
   */
  events?: boolean;
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
  readonly #checkIntervalMs: number;
  // Jobs stored in Redis that a watch of this producer waits for: checked for loss.
  readonly #stored = new Set<string>();
  #checkTimer: NodeJS.Timeout | undefined;
  #checking = false;
  #redis: Redis | undefined;
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
    const checkIntervalMs = options.checkIntervalMs ?? 5_000;
    if (!Number.isInteger(checkIntervalMs) || checkIntervalMs < 1) {
      throw new ConfigError(`SwarmQueue: checkIntervalMs must be an integer >= 1 (got ${checkIntervalMs}).`);
    }
    this.#checkIntervalMs = checkIntervalMs;
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
    if (options.jobId !== undefined) {
      try {
        validateRunId(options.jobId);
      } catch (error) {
        throw new ConfigError(
          `SwarmQueue.enqueue: jobId is the run's id in the workers' journal: ${errorMessage(error)}`,
        );
      }
    }
    if (options.events !== undefined && typeof options.events !== 'boolean') {
      throw new ConfigError(
        `SwarmQueue.enqueue: events must be a boolean (got ${JSON.stringify(options.events)}).`,
      );
    }
    await this.#listening();
    // Watch before adding, so that no event of the job can pass unseen.
    const jobId = options.jobId ?? randomUUID();
    const watch = this.#watch<R>(jobId);
    if (options.events === true) {
      await watch.watchEvents().catch((error: Error) => {
        watch.fail(error);
        throw error;
      });
    }
    await this.#queue.add(topologyName, data, { ...this.#jobOptions, jobId }).catch((error: Error) => {
      watch.fail(error);
      throw error;
    });
    // A job given by id may have finished before (an idempotent re-enqueue): it sends no more events.
    if (options.jobId !== undefined) await this.#settleIfFinished(watch);
    this.#checkFor([watch]);
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
    this.#checkFor(watches);
    return settle(watches);
  }

  /**
   * Resumes a paused job (its `result()` rejected with `RunPausedError`) with decisions on its
   * pending calls, by approval id. Any worker takes it up: the run replays what it had done, runs an
   * approved call once, answers a rejected one with its message, and goes on. Resolves with the
   * job, whose `result()` settles with the resumed run (or rejects with `RunPausedError` again for
   * calls still undecided). Decisions for ids the job does not wait for are a `ConfigError`, and
   * nothing is written. The first decision on a call stands: one given when another is already
   * recorded (two reviewers at once) is an `ApprovalConflictError` naming it, and nothing is
   * written. Each decision is recorded with `at` (now, unless given) and `by` (`options.by`, unless
   * the decision names its own): the run journals them and `swarm resume` shows them.
   */
  async approve<R extends TopologyResult = TopologyResult>(
    jobId: string,
    approvals: Approvals,
    options: { events?: boolean; by?: string } = {},
  ): Promise<SwarmJob<R>> {
    if (this.#closed) throw new ConfigError('SwarmQueue.approve: the queue is closed.');
    if (typeof jobId !== 'string' || jobId === '') {
      throw new ConfigError('SwarmQueue.approve: jobId must be a non-empty string.');
    }
    const checked = approvalsSchema.safeParse(approvals);
    if (!checked.success || Object.keys(checked.data).length === 0) {
      throw new ConfigError(
        `SwarmQueue.approve: approvals must be { [approvalId]: { approved: boolean, message?: string } } with at least one decision${
          checked.success ? '' : ` (${describeZodError(checked.error)})`
        }.`,
      );
    }
    await this.#listening();
    const key = this.#queue.toKey(jobId);
    const client = this.#client();
    // Compare-and-set on the job's data: of two approvals racing, one resumes the job, the other is
    // told so; the pause stays in the data until a worker starts the resumed attempt.
    for (let attempt = 0; attempt < 5; attempt++) {
      const raw = await client.hget(key, 'data');
      if (raw === null) {
        throw new ConfigError(`SwarmQueue.approve: queue "${this.name}" has no job "${jobId}".`);
      }
      const parsed = swarmJobDataSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        throw new ConfigError(
          `SwarmQueue.approve: job "${jobId}" is not a swarm run (${describeZodError(parsed.error)}).`,
        );
      }
      const data = parsed.data as SwarmJobData;
      // The first decision on a call stands: a second (another reviewer at the same moment) is refused.
      for (const id of Object.keys(checked.data)) {
        const earlier = data.approvals?.[id];
        if (earlier !== undefined) throw new ApprovalConflictError(id, earlier);
      }
      if (!data.paused) {
        const state = await this.#queue.getJobState(jobId);
        throw new ConfigError(
          `SwarmQueue.approve: job "${jobId}" is not paused (it is ${state}); nothing was written.`,
        );
      }
      const waiting = data.paused.pending.map((pending) => pending.id);
      const unknown = Object.keys(checked.data).filter((id) => !waiting.includes(id));
      if (unknown.length > 0) {
        throw new ConfigError(
          `SwarmQueue.approve: job "${jobId}" does not wait for ${unknown.map((id) => JSON.stringify(id)).join(', ')} (it waits for ${waiting.join(', ')}); nothing was written.`,
        );
      }
      const at = new Date().toISOString();
      const decided = Object.fromEntries(
        Object.entries(checked.data).map(([id, decision]) => [
          id,
          {
            ...decision,
            ...(options.by !== undefined && decision.by === undefined && { by: options.by }),
            at: decision.at ?? at,
          },
        ]),
      );
      const next = JSON.stringify({ ...data, approvals: { ...data.approvals, ...decided } });
      const swapped = await client.eval(approveScript, 2, key, this.#queue.keys.delayed!, jobId, raw, next);
      if (swapped === -1) continue;
      if (swapped === 0) {
        // Another approve resumed it first: name its decision when the job still shows it.
        const now = await client.hget(key, 'data');
        const decisions =
          now === null ? undefined : swarmJobDataSchema.safeParse(JSON.parse(now)).data?.approvals;
        const id = Object.keys(checked.data).find((id) => decisions?.[id] !== undefined);
        if (id !== undefined) throw new ApprovalConflictError(id, decisions![id]!);
        throw new ConfigError(
          `SwarmQueue.approve: job "${jobId}" is no longer paused (another approve resumed it); nothing was written.`,
        );
      }
      const watch = this.#watch<R>(jobId);
      try {
        if (options.events === true) await watch.watchEvents();
        const job = await this.#queue.getJob(jobId);
        if (!job) throw new JobLostError(this.name, jobId);
        await job.promote();
      } catch (error) {
        watch.fail(error as Error);
        throw error;
      }
      this.#checkFor([watch]);
      return watch;
    }
    throw new ConfigError(
      `SwarmQueue.approve: job "${jobId}" kept changing while it was being approved; try again.`,
    );
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
    this.#stored.clear();
    clearTimeout(this.#checkTimer);
    this.#checkTimer = undefined;
    const events = this.#events;
    this.#events = undefined;
    const redis = this.#redis;
    this.#redis = undefined;
    await Promise.all([
      this.#queue.close(),
      redis?.quit().catch(() => redis.disconnect()),
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
    const data: SwarmJobData = {
      topology: topologyName,
      task,
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.runOptions !== undefined ? { runOptions: options.runOptions } : {}),
    };
    const problems = jobDataProblems(data);
    if (problems.length > 0) throw new ConfigError(`SwarmQueue.${method}: ${problems.join('; ')}.`);
    return data;
  }

  #watch<R extends TopologyResult>(id: string): JobWatch<R> {
    // Stored untyped: the stream hands back whatever the worker's topology returned.
    const watch = new JobWatch<R>(this.name, id, () =>
      watchJob(this.#client(), this.name, id),
    ) as unknown as JobWatch<TopologyResult>;
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
    if (watches?.size !== 0) return;
    this.#watches.delete(watch.id);
    this.#stored.delete(watch.id);
    if (this.#stored.size === 0) {
      clearTimeout(this.#checkTimer);
      this.#checkTimer = undefined;
    }
  }

  // Once stored in Redis (never before: a job being added is not lost), a waited-for job is
  // checked for loss every `checkIntervalMs` until it settles.
  #checkFor(watches: readonly { id: string; settled: boolean }[]): void {
    for (const watch of watches) if (!watch.settled) this.#stored.add(watch.id);
    this.#scheduleCheck();
  }

  #scheduleCheck(): void {
    if (this.#checkTimer || this.#checking || this.#closed || this.#stored.size === 0) return;
    this.#checkTimer = setTimeout(() => {
      this.#checkTimer = undefined;
      this.#checking = true;
      this.#checkStored()
        // A check that could not reach Redis proves nothing either way: the next one asks again.
        .catch(() => undefined)
        .finally(() => {
          this.#checking = false;
          this.#scheduleCheck();
        });
    }, this.#checkIntervalMs);
    // Waiting producers are kept alive by their Redis connections, not by this check.
    this.#checkTimer.unref();
  }

  async #checkStored(): Promise<void> {
    const ids = [...this.#stored];
    const client = this.#client();
    const pipeline = client.pipeline();
    for (const id of ids) pipeline.exists(this.#queue.toKey(id));
    const replies = (await pipeline.exec()) ?? [];
    // Settled while the check ran: nothing to do.
    const missing = ids.filter(
      (id, i) => this.#stored.has(id) && replies[i]?.[0] === null && replies[i]?.[1] === 0,
    );
    if (missing.length === 0) return;
    // A job kept for no time once finished (keepJobs) is removed as its end enters the event stream
    // (one script), maybe before this producer read that end: look for it there before calling the
    // job lost.
    const ends = await this.#endsInStream(client, new Set(missing));
    for (const id of missing) {
      const end = ends.get(id);
      for (const watch of this.#watches.get(id) ?? []) {
        if (end?.event === 'completed') watch.complete(end.value as TopologyResult);
        else if (end?.event === 'failed') watch.fail(decodeFailedReason(end.value as string));
        else watch.fail(new JobLostError(this.name, id));
      }
    }
  }

  async #endsInStream(
    client: Redis,
    ids: Set<string>,
  ): Promise<Map<string, { event: 'completed' | 'failed'; value: unknown }>> {
    const ends = new Map<string, { event: 'completed' | 'failed'; value: unknown }>();
    const entries = await client.xrevrange(this.#queue.keys.events!, '+', '-', 'COUNT', STREAM_SCAN);
    for (const [, fields] of entries) {
      const entry: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!;
      const { event, jobId } = entry;
      if (jobId === undefined || !ids.has(jobId) || ends.has(jobId)) continue;
      if (event === 'completed') ends.set(jobId, { event, value: JSON.parse(entry.returnvalue ?? 'null') });
      if (event === 'failed') ends.set(jobId, { event, value: entry.failedReason ?? '' });
    }
    return ends;
  }

  #client(): Redis {
    this.#redis ??= new Redis({ ...this.#connection, maxRetriesPerRequest: 3 });
    return this.#redis;
  }

  // A job that had already finished (an idempotent re-enqueue) sends no more events: read its state.
  async #settleIfFinished<R extends TopologyResult>(watch: JobWatch<R>): Promise<void> {
    // The state first: a job read while still active has no return value yet.
    const state = await this.#queue.getJobState(watch.id);
    if (state === 'delayed') await this.#settleIfPaused(watch.id);
    if (state !== 'completed' && state !== 'failed') return;
    const job = await this.#queue.getJob(watch.id);
    if (!job) return;
    if (state === 'completed') watch.complete(job.returnvalue as R);
    else watch.fail(decodeFailedReason(job.failedReason));
  }

  // A paused job rejects its result with the pause, pending calls and all.
  async #settleIfPaused(jobId: string): Promise<void> {
    const raw = await this.#client().hget(this.#queue.toKey(jobId), 'data');
    if (raw === null) return;
    const paused = (JSON.parse(raw) as SwarmJobData).paused;
    if (!paused) return;
    const pause = new RunPausedError(paused.pending);
    for (const watch of this.#watches.get(jobId) ?? []) watch.fail(pause);
  }

  // One reader of the queue's event stream for every job of this producer, started from the
  // stream's current end so that nothing published after an enqueue is missed.
  #listening(): Promise<QueueEvents> {
    this.#events ??= (async () => {
      const tail = await this.#client().xrevrange(this.#queue.keys.events!, '+', '-', 'COUNT', 1);
      const lastEventId = tail[0]?.[0] ?? '0-0';
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
      // A run that paused for approval leaves its job delayed, its pending calls in its data.
      events.on('delayed', ({ jobId }) => {
        if (!this.#watches.has(jobId)) return;
        this.#settleIfPaused(jobId).catch((error: unknown) => {
          const failure = new Error(`Could not read whether job "${jobId}" paused: ${errorMessage(error)}`, {
            cause: error,
          });
          for (const watch of this.#watches.get(jobId) ?? []) watch.fail(failure);
        });
      });
      await events.waitUntilReady();
      return events;
    })();
    return this.#events;
  }
}

// Sets the job's data to ARGV[3] if it is still ARGV[2] and the job is still delayed (paused).
const approveScript = `
if redis.call('ZSCORE', KEYS[2], ARGV[1]) == false then return 0 end
if redis.call('HGET', KEYS[1], 'data') ~= ARGV[2] then return -1 end
redis.call('HSET', KEYS[1], 'data', ARGV[3])
return 1`;

// BullMQ trims a queue's event stream to about 10,000 entries: an end still there is in these.
const STREAM_SCAN = 10_000;

function isSwarmEvent(data: unknown): data is SwarmEvent {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}
