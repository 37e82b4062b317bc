import type { RunContext } from '@swarm/core';

/** A task ran past its time limit and was cancelled; the run itself goes on. */
export class TaskTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(task: string, timeoutMs: number) {
    super(`${task} took longer than ${timeoutMs} ms and was cancelled.`);
    this.name = 'TaskTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Runs `fn` under a time limit. `fn` gets the same run (`context.withSignal`) with a signal that
 * also fires after `timeoutMs`, so a slow task's model calls are really cancelled, and its calls,
 * usage, budget and events stay the run's own (no sub-run in the trace). At the limit this rejects
 * with `TaskTimeoutError` at once, even if the work ignores its signal; the timer is cleared
 * whatever happens, and an abort of the run itself is rethrown as it is.
 */
export async function withTaskTimeout<R>(
  context: RunContext,
  task: string,
  timeoutMs: number,
  fn: (context: RunContext) => Promise<R>,
): Promise<R> {
  const controller = new AbortController();
  const timeout = new TaskTimeoutError(task, timeoutMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
  });
  try {
    return await Promise.race([fn(context.withSignal(controller.signal)), expired]);
  } catch (error) {
    if (controller.signal.aborted && !context.signal?.aborted) throw timeout;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
