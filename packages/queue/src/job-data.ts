import type { Budget } from '@swarm/core';
import { z } from 'zod';

/** The JSON-only run options a job may carry to the worker (signals and listeners stay in-process). */
export interface QueuedRunOptions {
  budget?: Budget;
  /** Any other JSON option a topology's `run` accepts. */
  [key: string]: unknown;
}

/** What a job carries: the topology to run by name, the task, and the session it continues. */
export interface SwarmJobData {
  topology: string;
  task: string;
  sessionId?: string;
  runOptions?: QueuedRunOptions;
}

/** Validates a job's data as the worker reads it back from Redis. */
export const swarmJobDataSchema = z.object({
  topology: z.string().min(1),
  task: z.string(),
  sessionId: z.string().min(1).optional(),
  runOptions: z
    .object({
      budget: z
        .object({
          maxCalls: z.number().int().positive().optional(),
          maxTokens: z.number().int().positive().optional(),
        })
        .optional(),
    })
    .catchall(z.unknown())
    .optional(),
});
