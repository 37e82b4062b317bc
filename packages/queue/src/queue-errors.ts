import { SwarmError, type SwarmErrorCode } from '@swarm/core';

/** Codes of the errors the queue raises on the producer's side (never thrown by a run). */
export type QueueErrorCode = 'JOB_TIMEOUT' | 'JOB_LOST' | 'JOURNAL_NOT_REPLICATED';

/**
 * `job.result({ timeoutMs })` stopped waiting. The job itself goes on: call `result()` again to
 * wait longer. Code `JOB_TIMEOUT`.
 */
export class JobTimeoutError extends SwarmError {
  readonly jobId: string;
  readonly timeoutMs: number;

  constructor(queue: string, jobId: string, timeoutMs: number) {
    // Core's code union lists core's own codes; the queue's widen it here.
    super(
      'JOB_TIMEOUT' satisfies QueueErrorCode as SwarmErrorCode,
      `Job "${jobId}" of queue "${queue}" did not finish within ${timeoutMs} ms; it is still queued or running (call result() again to keep waiting).`,
    );
    this.name = 'JobTimeoutError';
    this.jobId = jobId;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The job a producer waits for is gone from Redis without having finished (Redis flushed or
 * restarted without persistence, the key evicted, the job removed): no result will ever come.
 * Code `JOB_LOST`.
 */
export class JobLostError extends SwarmError {
  readonly jobId: string;

  constructor(queue: string, jobId: string) {
    super(
      'JOB_LOST' satisfies QueueErrorCode as SwarmErrorCode,
      `Job "${jobId}" of queue "${queue}" is gone from Redis before it finished (Redis flushed or restarted without persistence, the key evicted, or the job removed): no result will come. Enqueue it again.`,
    );
    this.name = 'JobLostError';
    this.jobId = jobId;
  }
}

/**
 * A `redisJournal({ replicas })` append reached fewer replicas than asked within
 * `replicaTimeoutMs`: the entry is on the primary but may not survive a failover, so the run stops.
 * Code `JOURNAL_NOT_REPLICATED`.
 */
export class JournalNotReplicatedError extends SwarmError {
  readonly runId: string;
  readonly replicas: number;
  readonly acknowledged: number;

  constructor(runId: string, replicas: number, acknowledged: number, timeoutMs: number) {
    super(
      'JOURNAL_NOT_REPLICATED' satisfies QueueErrorCode as SwarmErrorCode,
      `redisJournal: an entry of run ${runId} reached ${acknowledged} of ${replicas} replica(s) within ${timeoutMs} ms, so it may not survive a failover; the run stops here (the entry is on the primary: a resume replays it).`,
    );
    this.name = 'JournalNotReplicatedError';
    this.runId = runId;
    this.replicas = replicas;
    this.acknowledged = acknowledged;
  }
}
