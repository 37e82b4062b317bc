import { isRunStop } from '@swarm/core';

/** Thrown when every attempt at a task failed: the last error, and how many attempts were made. */
export class AttemptsExhaustedError extends Error {
  readonly attempts: number;
  readonly lastError: unknown;

  constructor(lastError: unknown, attempts: number) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
    this.name = 'AttemptsExhaustedError';
    this.attempts = attempts;
    this.lastError = lastError;
  }
}

/**
 * Calls `fn` until it succeeds, at most `retries + 1` times, and says how many attempts it took.
 * A run stop (abort, budget) is rethrown at once, never retried; when every attempt fails the
 * last error is thrown wrapped in `AttemptsExhaustedError`, which carries the count.
 */
export async function withRetries<R>(
  retries: number,
  fn: (attempt: number) => Promise<R>,
): Promise<{ value: R; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await fn(attempt), attempts: attempt };
    } catch (error) {
      if (isRunStop(error)) throw error;
      if (attempt > retries) throw new AttemptsExhaustedError(error, attempt);
    }
  }
}
