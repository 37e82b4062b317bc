import {
  ConfigError,
  errorMessage,
  isPause,
  type RunOptions,
  SwarmError,
  type SwarmEvent,
  type Topology,
  type TopologyResult,
  validateRunId,
} from '@swarm/core';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import { checkQueueName, type RedisConnection, redisOptions } from './connection.js';
import { journalPrefix, pauseJob, resumedData, stillWaiting } from './durable-job.js';
import { EventWatches } from './event-watch.js';
import { jobDataProblems, type SwarmJobData } from './job-data.js';
import { runAsJob } from './job-scope.js';
import { type RedisJournal, type RedisJournalOptions, redisJournal } from './redis-journal.js';
import { encodeFailedReason } from './serialized-error.js';

/** A rate limit every worker of the queue shares: at most `max` jobs started per `perMs` milliseconds. */
export interface RateLimit {
  max: number;
  perMs: number;
}

/** Options of `createWorker`. */
export interface SwarmWorkerOptions {
  /** The queue's name, as the producers' `SwarmQueue` has it. */
  name: string;
  /** Where Redis is. */
  connection: RedisConnection;
  /** The topologies this worker runs, by the name producers enqueue them under. */
  topologies: Record<string, Topology>;
  /** Jobs this worker runs at once (default 1). */
  concurrency?: number;
  /**
   * Held across every worker of the queue, on every machine (BullMQ's limiter): give all of them
   * the same value.
   */
  rateLimit?: RateLimit;
  /**
   * Publishes the events of each run a producer watches (`job.events()`) as job progress (default
   * true). Runs nobody watches publish nothing either way; false turns watching off.
   */
  events?: boolean;
  /**
   * How long a job's lock lasts without renewal (default 30,000 ms): a worker that dies mid-job
   * loses its jobs to other workers once it expires.
   */
  lockDurationMs?: number;
  /** How often workers look for jobs whose worker died (default 30,000 ms). */
  stalledIntervalMs?: number;
  /** Times a job may be taken over from a dead worker before it fails (default 2). */
  maxStalledCount?: number;
  /**
   * Runs every job with a Redis journal keyed by its job id (default true): an attempt after a
   * worker died replays the calls the run had finished, and a run that pauses for approval is kept
   * as a paused job that `queue.approve` resumes. `false`: every attempt starts over, and a pause
   * fails the job. An object sets `redisJournal`'s `replicas` and `replicaTimeoutMs`.
   */
  journal?: boolean | Pick<RedisJournalOptions, 'replicas' | 'replicaTimeoutMs'>;
  /** Called with errors of the worker itself (Redis connection trouble); default: written to stderr. */
  onError?: (error: Error) => void;
}

/** A running worker: takes jobs of its queue and runs them with its topologies until closed. */
export interface SwarmWorker {
  readonly name: string;
  /** Resolves once the worker is connected and taking jobs. */
  ready(): Promise<void>;
  /** Stops taking jobs, lets the running ones finish and store their results, then disconnects. */
  close(): Promise<void>;
}

/**
 * Starts a worker for the queue `name`: it runs each job's task with the named topology, retries
 * (with the queue's backoff) only runs that failed with a retryable `ModelError`, and shares the
 * rate limit with every other worker. Start as many as you like, on any machine.
 */
export function createWorker(options: SwarmWorkerOptions): SwarmWorker {
  if (typeof options !== 'object' || options === null)
    throw new ConfigError('createWorker: options are required.');
  const name = checkQueueName(options.name, 'createWorker');
  const connection = redisOptions(options.connection, 'createWorker');
  const topologies = checkTopologies(options.topologies);
  const concurrency = positiveInteger(options.concurrency ?? 1, 'concurrency');
  const lockDuration = positiveInteger(options.lockDurationMs ?? 30_000, 'lockDurationMs');
  const stalledInterval = positiveInteger(options.stalledIntervalMs ?? 30_000, 'stalledIntervalMs');
  const maxStalledCount = positiveInteger(options.maxStalledCount ?? 2, 'maxStalledCount');
  const limiter = options.rateLimit === undefined ? undefined : checkRateLimit(options.rateLimit);
  const onError =
    options.onError ?? ((error: Error) => process.stderr.write(`swarm worker "${name}": ${error.message}\n`));
  const watches = (options.events ?? true) ? new EventWatches(name, connection, onError) : undefined;
  const journalOption = options.journal ?? true;
  if (typeof journalOption !== 'boolean' && (typeof journalOption !== 'object' || journalOption === null)) {
    throw new ConfigError('createWorker: journal must be a boolean or { replicas?, replicaTimeoutMs? }.');
  }
  const journal =
    journalOption === false
      ? undefined
      : redisJournal(connection, {
          ...(typeof journalOption === 'object' ? journalOption : {}),
          prefix: journalPrefix(name),
        });

  const processor = async (job: Job<SwarmJobData, TopologyResult>, token?: string, signal?: AbortSignal) => {
    const jobId = job.id!;
    const events = watches?.attempt(jobId, (event) => job.updateProgress(event));
    try {
      const data = readJobData(name, jobId, job.data);
      const topology = topologies[data.topology];
      if (!topology) {
        throw new ConfigError(
          `swarm worker "${name}": no topology named "${data.topology}" (this worker runs: ${Object.keys(topologies).join(', ')}).`,
        );
      }
      const runId = journal ? jobRunId(name, jobId) : undefined;
      // Approved (or taken over after an approval): this attempt is the resumed run, no longer paused.
      if (data.paused) await job.updateData(resumedData(data));
      const approvals =
        journal && runId && data.approvals ? await stillWaiting(journal, runId, data.approvals) : undefined;
      const runOptions = {
        ...(data.runOptions ?? {}),
        ...(data.sessionId !== undefined ? { sessionId: data.sessionId } : {}),
        ...(signal ? { signal } : {}),
        ...(events ? { onEvent: (event: SwarmEvent) => events.event(event) } : {}),
        ...(journal ? { journal: leasedUnderJob(journal, job, token), runId } : {}),
        ...(approvals ? { approvals } : {}),
      } as RunOptions;
      // Session stores name the run's saves after the job, so a second attempt saves none twice.
      const result = await runAsJob(name, jobId, () => topology.run(data.task, runOptions));
      // The result is stored only once a watcher has every event.
      await events?.published();
      return result;
    } catch (error) {
      // The run's own error is the one to report.
      await events?.published().catch(() => undefined);
      if (journal && isPause(error)) {
        await pauseJob(job, token, error);
        throw new DelayedError(`swarm worker "${name}": job "${jobId}" paused for approval.`);
      }
      throw forBullMQ(error);
    } finally {
      if (events) watches?.end(events);
    }
  };

  const worker = new Worker<SwarmJobData, TopologyResult>(name, processor, {
    connection: { ...connection, maxRetriesPerRequest: null },
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount,
    ...(limiter ? { limiter } : {}),
  });
  worker.on('error', onError);
  if (journal) {
    // A finished job is never run again: its journal can go. (An attempt to come keeps it.)
    const forget = (job: Job | undefined) => {
      if (!job?.id) return;
      journal
        .delete(job.id)
        .catch((error: unknown) =>
          onError(new Error(`could not delete the journal of job "${job.id}": ${errorMessage(error)}`)),
        );
    };
    worker.on('completed', forget);
    worker.on('failed', (job) => {
      if (job?.finishedOn) forget(job);
    });
  }

  let closing: Promise<void> | undefined;
  return {
    name,
    ready: async () => {
      await Promise.all([worker.waitUntilReady(), watches?.ready()]);
    },
    close: () => {
      closing ??= worker.close().then(async () => {
        await Promise.all([watches?.close(), journal?.close()]);
      });
      return closing;
    },
  };
}

// Only a retryable model error (a rate limit, a server error, a timeout) is worth another attempt;
// everything else (bad config, a budget stop, a bug) would fail the same way again.
function forBullMQ(error: unknown): Error {
  const reason = encodeFailedReason(error);
  const retryable =
    SwarmError.isInstance(error) &&
    error.code === 'MODEL' &&
    (error as { retryable?: unknown }).retryable === true;
  return retryable ? new Error(reason) : new UnrecoverableError(reason);
}

// A job another producer (or an older one) added: checked as strictly as enqueue checks it.
function readJobData(queue: string, jobId: string, data: unknown): SwarmJobData {
  const problems = jobDataProblems(data);
  if (problems.length > 0) {
    throw new ConfigError(`swarm worker "${queue}": job "${jobId}" cannot run: ${problems.join('; ')}.`);
  }
  return data as SwarmJobData;
}

// The worker's journal as one job's run sees it: the run's lease is tied to the job's BullMQ lock,
// so a stalled job another worker took over fences this attempt off.
function leasedUnderJob(journal: RedisJournal, job: Job, token: string | undefined): RedisJournal {
  if (token === undefined) return journal;
  const jobLock = { key: `${job.queueQualifiedName}:${job.id}:lock`, token, holder: `job ${job.id}` };
  return { ...journal, acquireLease: (runId) => journal.acquireLease(runId, { jobLock }) };
}

// The job id keys the journal: it must name one Redis key and never a path.
function jobRunId(queue: string, jobId: string): string {
  try {
    return validateRunId(jobId);
  } catch (error) {
    throw new ConfigError(
      `swarm worker "${queue}": job "${jobId}" cannot be journaled: its id is the run id, and ${errorMessage(error)}`,
    );
  }
}

function checkTopologies(topologies: unknown): Record<string, Topology> {
  if (typeof topologies !== 'object' || topologies === null || Object.keys(topologies).length === 0) {
    throw new ConfigError('createWorker: topologies must be an object of one or more { name: Topology }.');
  }
  for (const [key, topology] of Object.entries(topologies)) {
    if (typeof (topology as Partial<Topology> | null)?.run !== 'function') {
      throw new ConfigError(`createWorker: topologies.${key} is not a topology (it has no run method).`);
    }
  }
  return topologies as Record<string, Topology>;
}

function checkRateLimit(rateLimit: RateLimit): { max: number; duration: number } {
  if (
    typeof rateLimit !== 'object' ||
    rateLimit === null ||
    !Number.isInteger(rateLimit.max) ||
    rateLimit.max < 1 ||
    !Number.isInteger(rateLimit.perMs) ||
    rateLimit.perMs < 1
  ) {
    throw new ConfigError(
      `createWorker: rateLimit must be { max, perMs } with integers >= 1 (got ${JSON.stringify(rateLimit)}).`,
    );
  }
  return { max: rateLimit.max, duration: rateLimit.perMs };
}

function positiveInteger(value: number, option: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(`createWorker: ${option} must be an integer >= 1 (got ${value}).`);
  }
  return value;
}
