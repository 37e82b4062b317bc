import type { Approvals, Budget, PendingApproval } from '@swarm/core';
import { z } from 'zod';

/**
 * The run options a job may carry to the worker: plain JSON only. Signals, listeners, limiters and
 * parent runs live in one process and cannot cross Redis.
 */
export interface QueuedRunOptions {
  /** Whole-run budget, all agents together. */
  budget?: Budget;
  /** Stream model text as `model.delta` events (published to `job.events()` like the others). */
  textDeltas?: boolean;
}

/**
 * What a job carries: the topology to run by name, the task, and the session it continues; the
 * worker and `queue.approve` add what a paused run waits for and the decisions that resume it.
 */
export interface SwarmJobData {
  topology: string;
  task: string;
  sessionId?: string;
  runOptions?: QueuedRunOptions;
  /** Set by the worker when the run paused: the calls it waits for (the job is then delayed). */
  paused?: { pending: PendingApproval[] };
  /** Set by `queue.approve`: the decisions the next attempt resumes the run with. */
  approvals?: Approvals;
}

const queuedRunOptionsSchema = z.strictObject({
  budget: z
    .strictObject({
      maxCalls: z.number().int().positive().optional(),
      maxTokens: z.number().int().positive().optional(),
    })
    .optional(),
  textDeltas: z.boolean().optional(),
});

const pendingApprovalSchema = z.object({
  id: z.string(),
  runId: z.string(),
  path: z.array(z.string()),
  agent: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  argumentsHash: z.string().optional(),
});

/** Decisions on a paused run's calls, by approval id: who decided (`by`) and when (`at`) too. */
export const approvalsSchema = z.record(
  z.string(),
  z.strictObject({
    approved: z.boolean(),
    message: z.string().optional(),
    by: z.string().optional(),
    at: z.string().optional(),
  }),
);

/** Validates a job's data as the worker reads it back from Redis. */
export const swarmJobDataSchema = z.object({
  topology: z.string().min(1),
  task: z.string(),
  sessionId: z.string().min(1).optional(),
  runOptions: queuedRunOptionsSchema.optional(),
  paused: z.object({ pending: z.array(pendingApprovalSchema) }).optional(),
  approvals: approvalsSchema.optional(),
});

// Run options that exist in-process but mean nothing on another machine, and what to do instead.
const inProcessOnly: Record<string, string> = {
  signal: 'an AbortSignal cannot cross Redis',
  onEvent: 'a listener cannot cross Redis; read job.events() instead',
  limiter: 'a Limiter holds in one process; give every worker the same rateLimit (createWorker) instead',
  parent: 'a queued run cannot join a run of another process',
  parentToolCallId: 'a queued run is not nested in a tool call',
  journal: "the worker journals every job in Redis under its job id (createWorker's journal option)",
  runId: 'the job id is the run id; give enqueue a jobId',
  approvals: 'resume a paused job with queue.approve(jobId, approvals)',
};

/**
 * The problems of a job's data, each naming its field (`runOptions.limiter ...`); empty when it is
 * a swarm run the worker can start.
 */
export function jobDataProblems(data: unknown): string[] {
  const parsed = swarmJobDataSchema.safeParse(data);
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue) => {
    const at = issue.path.join('.');
    if (issue.code !== 'unrecognized_keys') return [`${at || '(job data)'}: ${issue.message}`];
    return issue.keys.map((key) => {
      const field = at ? `${at}.${key}` : key;
      const why = at === 'runOptions' ? inProcessOnly[key] : undefined;
      return why
        ? `${field} is not accepted: ${why}`
        : `${field} is not an option of a queued run (it takes ${Object.keys(queuedRunOptionsSchema.shape).join(' and ')})`;
    });
  });
}
