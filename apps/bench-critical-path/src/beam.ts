import { Limiter } from '@swarm/core';
import { CoordinatedTreeOfThoughts } from '@swarm/tot';
import { latencyModel } from './call-log.js';
import { branching, type Case } from './cases.js';

const task = 'Write a short market brief on electric bicycles.';

/**
 * CoordinatedTreeOfThoughts at its default beam and with no beam, each alone and under a shared
 * limiter of `concurrency` calls (undefined: none): a new limiter per run, as a caller would pass.
 */
export function beamCase(beamWidth: number | undefined, concurrency: number | undefined): Case {
  const beam =
    beamWidth === undefined ? 'default beam' : beamWidth === Infinity ? 'no beam' : `beam ${beamWidth}`;
  const limit = concurrency === undefined ? 'no limiter' : `limiter of ${concurrency}`;
  return {
    name: `CoordinatedTreeOfThoughts, ${beam}, ${limit}`,
    tasks: [task],
    build: (log, latencies) => {
      const tot = new CoordinatedTreeOfThoughts({
        model: latencyModel(log, latencies.modelMs, branching),
        ...(beamWidth !== undefined && { beamWidth }),
      });
      return () => tot.run(task, concurrency === undefined ? {} : { limiter: new Limiter({ concurrency }) });
    },
  };
}

/** The beam table's rows. */
export const beamCases: Case[] = [undefined, 16, 8].flatMap((concurrency) => [
  beamCase(undefined, concurrency),
  beamCase(Infinity, concurrency),
]);
