import type { Budget } from '@swarm/core';
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

/** What a job carries: the topology to run by name, the task, and the session it continues. */
export interface SwarmJobData {
  topology: string;
  task: string;
  sessionId?: string;
  runOptions?: QueuedRunOptions;
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

/** Validates a job's data as the worker reads it back from Redis. */
export const swarmJobDataSchema = z.object({
  topology: z.string().min(1),
  task: z.string(),
  sessionId: z.string().min(1).optional(),
  runOptions: queuedRunOptionsSchema.optional(),
});

// Run options that exist in-process but mean nothing on another machine, and what to do instead.
const inProcessOnly: Record<string, string> = {
  signal: 'an AbortSignal cannot cross Redis',
  onEvent: 'a listener cannot cross Redis; read job.events() instead',
  limiter: 'a Limiter holds in one process; give every worker the same rateLimit (createWorker) instead',
  parent: 'a queued run cannot join a run of another process',
  parentToolCallId: 'a queued run is not nested in a tool call',
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
