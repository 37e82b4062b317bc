import { RunContext } from '@swarm/core';

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
 * Runs `fn` in a context of its own whose signal fires after `timeoutMs` (as well as when the
 * run's does), so a slow task's model calls are really cancelled, not left running. The context
 * is nested in `context`: calls, usage, budget and events still count for the run. A time-out
 * rejects with `TaskTimeoutError`; the timer is cleared whatever happens.
 */
export async function withTaskTimeout<R>(
  context: RunContext,
  task: string,
  timeoutMs: number | undefined,
  fn: (context: RunContext) => Promise<R>,
): Promise<R> {
  if (timeoutMs === undefined) return fn(context);
  const controller = new AbortController();
  const timeout = new TaskTimeoutError(task, timeoutMs);
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
  try {
    return await fn(new RunContext({ parent: context, signal: controller.signal, name: task }));
  } catch (error) {
    if (controller.signal.aborted && !context.signal?.aborted) throw timeout;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
