import type { Settled } from '../contracts/model.js';
import { ConfigError, isAbort, isPause, RunPausedError, throwIfAborted } from './errors.js';

/**
 * Runs `fn` over `items` with at most `concurrency` in flight and returns settled outcomes in input
 * order: one failure never loses its siblings' work.
 */
export async function mapSettled<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<Settled<R>[]> {
  const { concurrency = Number.POSITIVE_INFINITY, signal } = options;
  if (!(concurrency >= 1) || (Number.isFinite(concurrency) && !Number.isInteger(concurrency))) {
    throw new ConfigError(
      `mapSettled: concurrency must be an integer >= 1 or Infinity (got ${concurrency}).`,
    );
  }
  const results = new Array<Settled<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        throwIfAborted(signal);
        results[index] = { status: 'fulfilled', value: await fn(items[index]!, index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  const workers = Math.min(items.length, concurrency);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

/**
 * Like `mapSettled`, but rejects once all have settled: with an abort if any, else with the first
 * other failure (in input order), else with every pause as one `RunPausedError`.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<R[]> {
  const settled = await mapSettled(items, fn, options);
  const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
  const failed = reasons.find(isAbort) ?? reasons.find((r) => !isPause(r));
  if (failed !== undefined) throw failed;
  if (reasons.length > 0) throw RunPausedError.merge(reasons as RunPausedError[]);
  return settled.map((s) => (s as { value: R }).value);
}
