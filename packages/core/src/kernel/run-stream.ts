import type { SwarmEvent } from '../contracts/events.js';
import type { RunStream } from '../contracts/run.js';
import type { RunOptions } from './run-context.js';

export type { RunStream } from '../contracts/run.js';

/**
 * Turns any `run(options)` into a stream: events given to `onEvent` are queued for the iterator
 * (and still passed to the caller's own `onEvent`), and the iteration ends when the run does. If
 * the run fails, the iterator throws after the events that came before the failure.
 */
export function runStream<R>(
  start: (options: RunOptions) => Promise<R>,
  options: RunOptions = {},
): RunStream<R> {
  const buffer: SwarmEvent[] = [];
  // One waiter per iterator: a stream may be iterated by several consumers at once.
  const waiters = new Set<() => void>();
  let finished = false;
  let failure: { error: unknown } | undefined;

  const notify = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const result = start({
    textDeltas: true,
    ...options,
    onEvent: (event) => {
      options.onEvent?.(event);
      buffer.push(event);
      notify();
    },
  });
  result.then(
    () => {
      finished = true;
      notify();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      notify();
    },
  );

  return {
    result,
    async *[Symbol.asyncIterator]() {
      let index = 0;
      while (true) {
        while (index < buffer.length) yield buffer[index++]!;
        if (finished) break;
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
        });
      }
      if (failure) throw failure.error;
    },
  };
}
