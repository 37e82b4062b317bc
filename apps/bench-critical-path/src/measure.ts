import { CallLog } from './call-log.js';
import type { Case, Latencies } from './cases.js';
import { criticalPath } from './critical-path.js';

/** One measured run of a case. */
export interface Measurement {
  wallMs: number;
  criticalMs: number;
  /** Model and embedding calls of the run. */
  calls: number;
  /** Calls on the critical path. */
  chainLength: number;
  ratio: number;
}

/** Runs a case once (a fresh topology over a fresh log) and measures wall time against its critical path. */
export async function measureOnce(testCase: Case, latencies: Latencies): Promise<Measurement> {
  const log = new CallLog();
  const run = testCase.build(log, latencies);
  const start = performance.now();
  await run();
  const wallMs = performance.now() - start;
  const path = criticalPath(log.calls, testCase.tasks);
  return {
    wallMs,
    criticalMs: path.ms,
    calls: log.calls.length,
    chainLength: path.chain.length,
    ratio: wallMs / path.ms,
  };
}

/**
 * Runs a case `runs` times after one warm-up run: the run with the lowest ratio and the one with
 * the median ratio. A busy machine only ever adds time, so the best run is the closest to what the
 * topology itself costs, and the median shows what the machine added.
 */
export async function measure(
  testCase: Case,
  latencies: Latencies,
  runs: number,
): Promise<{ best: Measurement; median: Measurement }> {
  await measureOnce(testCase, latencies);
  const all: Measurement[] = [];
  for (let i = 0; i < runs; i++) all.push(await measureOnce(testCase, latencies));
  all.sort((a, b) => a.ratio - b.ratio);
  return { best: all[0]!, median: all[Math.floor(all.length / 2)]! };
}
