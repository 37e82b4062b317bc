import {
  AbortError,
  BudgetExceededError,
  ConfigError,
  MaxTurnsExceededError,
  ModelError,
  NoRouteError,
  type PendingApproval,
  RunPausedError,
  StructuredOutputError,
  SwarmError,
  type SwarmErrorCode,
  ToolError,
} from '@swarm/core';
import { z } from 'zod';

/**
 * An error as it crosses from a worker to the producer through Redis: what is needed to rebuild
 * it as the same `SwarmError` subclass with the same code and details.
 */
export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
  status?: number;
  provider?: string;
  reason?: string;
  tool?: string;
  agent?: string;
  maxTurns?: number;
  task?: string;
  attempts?: string[];
  /** A `RunPausedError`'s calls waiting for approval. */
  pending?: PendingApproval[];
}

const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string().optional(),
  retryable: z.boolean().optional(),
  status: z.number().optional(),
  provider: z.string().optional(),
  reason: z.string().optional(),
  tool: z.string().optional(),
  agent: z.string().optional(),
  maxTurns: z.number().optional(),
  task: z.string().optional(),
  attempts: z.array(z.string()).optional(),
  pending: z
    .array(
      z.object({
        id: z.string(),
        runId: z.string(),
        path: z.array(z.string()),
        agent: z.string(),
        tool: z.string(),
        arguments: z.record(z.string(), z.unknown()),
      }),
    )
    .optional(),
});

const envelope = z.object({ swarmError: serializedErrorSchema });

/** The plain-data form of anything thrown, keeping a `SwarmError`'s code and details. */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const out: SerializedError = { name: error.name, message: error.message };
  if (!SwarmError.isInstance(error)) return out;
  out.code = error.code;
  const details = error as unknown as Record<string, unknown>;
  for (const key of [
    'retryable',
    'status',
    'provider',
    'reason',
    'tool',
    'agent',
    'maxTurns',
    'task',
  ] as const) {
    const value = details[key];
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  if (Array.isArray(details.attempts)) out.attempts = details.attempts.map(String);
  if (error instanceof RunPausedError || Array.isArray(details.pending)) {
    out.pending = structuredClone(details.pending as PendingApproval[]);
  }
  return out;
}

/** Encodes an error as a job's `failedReason`: JSON that `decodeFailedReason` reads back. */
export function encodeFailedReason(error: unknown): string {
  return JSON.stringify({ swarmError: serializeError(error) });
}

/**
 * Rebuilds the error a worker threw from a job's `failedReason`; a reason BullMQ wrote itself (a
 * job that stalled too often, say) becomes a plain `Error` with that message.
 */
export function decodeFailedReason(failedReason: string): Error {
  let parsed: unknown;
  try {
    parsed = JSON.parse(failedReason);
  } catch {
    return new Error(failedReason);
  }
  const checked = envelope.safeParse(parsed);
  return checked.success ? rebuildError(checked.data.swarmError) : new Error(failedReason);
}

/** The same `SwarmError` subclass, code and details as the serialized error (a plain `Error` otherwise). */
export function rebuildError(data: SerializedError): Error {
  switch (data.name) {
    case 'ConfigError':
      return new ConfigError(data.message);
    case 'ModelError':
      return new ModelError(data.message, {
        provider: data.provider ?? 'unknown',
        ...(data.status !== undefined ? { status: data.status } : {}),
        retryable: data.retryable ?? false,
      });
    case 'BudgetExceededError':
      return new BudgetExceededError(
        data.reason === 'budget:tokens' ? 'budget:tokens' : 'budget:calls',
        data.message,
      );
    case 'AbortError':
      return new AbortError(data.message);
    case 'StructuredOutputError':
      return new StructuredOutputError(data.message, data.attempts ?? []);
    case 'ToolError':
      return new ToolError(data.tool ?? 'unknown', data.message);
    case 'MaxTurnsExceededError':
      return Object.assign(new MaxTurnsExceededError(data.agent ?? 'unknown', data.maxTurns ?? 0), {
        message: data.message,
      });
    case 'NoRouteError':
      return new NoRouteError(data.task ?? '', data.message);
    case 'RunPausedError':
      return new RunPausedError(data.pending ?? []);
  }
  const error =
    data.code !== undefined
      ? new SwarmError(data.code as SwarmErrorCode, data.message)
      : new Error(data.message);
  error.name = data.name;
  return error;
}
