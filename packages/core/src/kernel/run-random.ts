import { fnv1a } from './hash.js';
import { pathKeyOf, type RunContext, rootOf } from './run-context.js';

/**
 * Numbers in [0, 1) for a topology that draws at random (sampling, tie breaks, shuffles), seeded
 * from the outermost run's id, the run's place in the run tree and `scope` (what the draw is for):
 * a run resumed from its journal (same `runId`) draws the same numbers, so it takes the same
 * branches. Without a given `runId` each run draws afresh.
 */
export function runRandom(context: RunContext, ...scope: (string | number)[]): () => number {
  let state = fnv1a([rootOf(context).runId, pathKeyOf(context), ...scope].join('\u0000'));
  // mulberry32: small, fast, and the same sequence on every runtime.
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
