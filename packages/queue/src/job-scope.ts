import { AsyncLocalStorage } from 'node:async_hooks';

/** What a session store read for a turn: replayed to a second attempt of the same job. */
export interface TurnRead {
  version: number;
  length: number;
  lastAgent?: string | undefined;
}

/**
 * One attempt of one job, as the code it runs sees it: session stores name a job's turns by it, so
 * a job run twice (a worker killed after a turn was saved) writes each turn once.
 */
export interface JobScope {
  /** `<queue>/<jobId>`: unique across the queues sharing a session store. */
  readonly job: string;
  /** Saves made so far by this attempt, per session: the n-th save of an attempt is turn n. */
  readonly saves: Map<string, number>;
  /** What this attempt read of each session, the base of its next save. */
  readonly reads: Map<string, TurnRead>;
}

const scope = new AsyncLocalStorage<JobScope>();

/** Runs `fn` as one attempt of the job (the worker's processor does, around the topology's run). */
export function runAsJob<T>(queue: string, jobId: string, fn: () => T): T {
  return scope.run({ job: `${queue}/${jobId}`, saves: new Map(), reads: new Map() }, fn);
}

/** The job attempt the calling code runs in, if any. */
export function currentJob(): JobScope | undefined {
  return scope.getStore();
}

/** The id of the turn the attempt's next save of `sessionId` writes. */
export function nextTurn(job: JobScope, sessionId: string): string {
  return `${job.job}#${(job.saves.get(sessionId) ?? 0) + 1}`;
}
