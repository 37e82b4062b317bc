import { AbortError, ToolError } from '../kernel/errors.js';
import { linkSignal, raceSignal } from '../kernel/linked-signal.js';

/**
 * Runs one tool call so that it cannot hold a run hostage: it settles as soon as the run's signal
 * fires (AbortError) or `timeoutMs` passes (a ToolError the model sees), whether or not `execute`
 * watches the signal it is given. The tool gets a signal that fires in both cases.
 */
export function executeWithin<R>(
  tool: string,
  execute: (signal: AbortSignal | undefined) => Promise<R> | R,
  runSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<R> {
  // Without a time limit, no async frame: the tool's own promise, raced with the run's signal.
  if (timeoutMs === undefined) return raceSignal(started(execute, runSignal), runSignal);
  return executeTimed(tool, execute, runSignal, timeoutMs);
}

async function executeTimed<R>(
  tool: string,
  execute: (signal: AbortSignal | undefined) => Promise<R> | R,
  runSignal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<R> {
  const linked = linkSignal(runSignal, timeoutMs);
  try {
    return await raceSignal(started(execute, linked.signal), linked.signal);
  } catch (error) {
    if (linked.cause === 'timeout' && !runSignal?.aborted) {
      throw new ToolError(tool, `Tool "${tool}" did not finish within ${timeoutMs} ms.`, { cause: error });
    }
    if (linked.cause === 'parent') throw new AbortError(undefined, { cause: runSignal?.reason });
    throw error;
  } finally {
    linked.release();
  }
}

// `execute` started on `signal`, as a promise: what it throws at once rejects (no async frame).
function started<R>(
  execute: (signal: AbortSignal | undefined) => Promise<R> | R,
  signal: AbortSignal | undefined,
): Promise<R> {
  try {
    return Promise.resolve(execute(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}
