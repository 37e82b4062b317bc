// What reusing the structured-output schemas saves: core converts a zod schema to JSON Schema once
// per schema object, so a topology that made its schemas per run paid that conversion on every
// run. A fresh instance per run still makes its schemas per run (the old behaviour); one instance
// run again and again reuses them. Both sides run the same calls on the same zero-latency model, so
// the ratio is the CPU the reuse saves. Measured in the same run, in alternating rounds.
// Run with `pnpm bench` (from the root) or `pnpm --filter @swarm/hierarchy bench`.
import { Agent, type Topology } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { HierarchicalSwarm, PlannerWorkerSwarm } from '../src/index.js';

const task = 'Write a short market analysis of electric bicycles.';

function workers() {
  const model = autoModel();
  return ['researcher', 'analyst', 'writer'].map(
    (name) => new Agent({ name, description: `The ${name}.`, model }),
  );
}

const topologies: Record<string, () => Topology> = {
  HierarchicalSwarm: () => new HierarchicalSwarm({ director: autoModel(), agents: workers(), maxLoops: 1 }),
  PlannerWorkerSwarm: () => new PlannerWorkerSwarm({ planner: autoModel(), workers: workers(), maxLoops: 1 }),
};

async function cpuPerRun(runs: number, run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / runs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  console.log(
    'Schema reuse: CPU µs per run, one instance reused vs a fresh instance (fresh schemas) per run',
  );
  console.log('| topology | reused (µs/run) | fresh per run (µs/run) | fresh / reused |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, make] of Object.entries(topologies)) {
    const reused = make();
    const perRound = 20;
    // Fresh instances are built before the clock starts: only their runs are timed.
    const timed = async (side: 'reused' | 'fresh') => {
      const pool = side === 'fresh' ? Array.from({ length: perRound }, make) : [];
      let next = 0;
      return cpuPerRun(perRound, () => (side === 'fresh' ? pool[next++]! : reused).run(task));
    };
    await timed('reused');
    await timed('fresh');
    const ratios: number[] = [];
    const times = { reused: [] as number[], fresh: [] as number[] };
    for (let round = 0; round < 15; round++) {
      const order = round % 2 === 0 ? (['reused', 'fresh'] as const) : (['fresh', 'reused'] as const);
      const got = { reused: 0, fresh: 0 };
      for (const side of order) got[side] = await timed(side);
      times.reused.push(got.reused);
      times.fresh.push(got.fresh);
      ratios.push(got.fresh / got.reused);
    }
    console.log(
      `| ${name} | ${median(times.reused).toFixed(0)} | ${median(times.fresh).toFixed(0)} | ${median(ratios).toFixed(2)}x |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
