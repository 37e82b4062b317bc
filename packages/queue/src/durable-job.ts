import { type Approvals, type RunPausedError, waitingApprovals } from '@swarm/core';
import type { Job } from 'bullmq';
import type { SwarmJobData } from './job-data.js';
import type { RedisJournal } from './redis-journal.js';

/** Where a queue's jobs keep their journals: `redisJournal(connection, { prefix })` under each job id. */
export const journalPrefix = (queue: string) => `bull:${queue}:swarm-journal:`;

// A paused job waits as a delayed job due this far ahead: kept out of every keepJobs trim and
// visible, never run until `approve` promotes it (and if it ever came due, it would pause again).
const PAUSED_FOR_MS = 5 * 365 * 24 * 3600 * 1000;

/**
 * The decisions that still have a call to decide: an attempt taken over after an approved call ran
 * would otherwise hand core a decision for a call its journal no longer waits for.
 */
export async function stillWaiting(
  journal: RedisJournal,
  runId: string,
  approvals: Approvals,
): Promise<Approvals | undefined> {
  const waiting = new Set(waitingApprovals(await journal.read(runId)).map((pending) => pending.id));
  const kept = Object.entries(approvals).filter(([id]) => waiting.has(id));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** Keeps a paused run's job as paused: its pending calls in its data, the job delayed until approved. */
export async function pauseJob(
  job: Job<SwarmJobData>,
  token: string | undefined,
  pause: RunPausedError,
): Promise<void> {
  const { approvals: _used, ...data } = job.data;
  await job.updateData({ ...data, paused: { pending: pause.pending } });
  await job.moveToDelayed(Date.now() + PAUSED_FOR_MS, token);
}

/** The job's data without the pause (the attempt that resumes it). */
export function resumedData(data: SwarmJobData): SwarmJobData {
  const { paused: _done, ...rest } = data;
  return rest;
}
