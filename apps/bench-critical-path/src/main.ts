// Three measurements, each printed as a table with its ratios measured in the same run:
// 1. every topology at its defaults on a fixed simulated latency per model call (and per
//    embedding call): wall time over the critical path measured from the run's own call log;
// 2. CoordinatedTreeOfThoughts with its default beam and with none, alone and under a shared limiter;
// 3. the structured-output schemas made once (MultiAgentRouter, TreeOfThoughts) against made per
//    call: conversions and CPU per run.
// Run with `pnpm bench` (from the root) or `pnpm --filter @swarm-apps/bench-critical-path bench`;
// `bench -- SequentialWorkflow Forest` runs only the critical-path rows whose names start so.
import { availableParallelism, loadavg } from 'node:os';
import { beamCases } from './beam.js';
import { type Case, cases } from './cases.js';
import { measure } from './measure.js';
import { measureSchemaReuse, schemaCases } from './schema-reuse.js';

const latencies = { modelMs: 50, embedMs: 20 };
const goal = 1.05;
const runs = 5;

async function table(rows: Case[]): Promise<string[]> {
  console.log(
    `| topology | calls | on the path | critical path (ms) | wall, best of ${runs} (ms) | wall / path, best | wall / path, median |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const misses: string[] = [];
  for (const row of rows) {
    const { best, median } = await measure(row, latencies, runs);
    const ratio = `${best.ratio.toFixed(2)}x`;
    console.log(
      `| ${row.name} | ${best.calls} | ${best.chainLength} | ${best.criticalMs.toFixed(0)} | ${best.wallMs.toFixed(0)} | ${best.ratio > goal ? `**${ratio}**` : ratio} | ${median.ratio.toFixed(2)}x |`,
    );
    if (best.ratio > goal) misses.push(`${row.name} ${ratio}`);
  }
  return misses;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => a !== '--');
  const load = () =>
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores`;
  console.log(
    `Critical path (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${load()}): ` +
      `${latencies.modelMs} ms a model call, ${latencies.embedMs} ms an embedding call, ${runs} runs after a warm-up, each on a new instance; the goal is judged on the best run`,
  );
  const rows = only.length === 0 ? cases : cases.filter((c) => only.some((name) => c.name.startsWith(name)));
  const misses = await table(rows);
  console.log(
    misses.length === 0
      ? `Goal met: every topology within ${goal}x of its critical path (${load()}).`
      : `Goal (${goal}x) missed by: ${misses.join(', ')} (${load()}; a loaded machine slows every row).`,
  );
  if (only.length > 0) return;

  console.log(
    '\nCoordinatedTreeOfThoughts beam under a shared limiter (beam calls per level <= 6 x beamWidth):',
  );
  await table(beamCases);

  console.log(
    '\nStructured-output schemas made once vs per call: JSON Schema conversions and CPU per run (zero-latency model)',
  );
  console.log(
    '| topology | conversions / run, made once | made per call | CPU µs / run, made once | made per call | per call / once |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, schemaCase] of Object.entries(schemaCases)) {
    const m = await measureSchemaReuse(schemaCase);
    console.log(
      `| ${name} | ${m.conversionsCached.toFixed(1)} | ${m.conversionsUncached.toFixed(1)} | ${m.cpuCachedUs.toFixed(0)} | ${m.cpuUncachedUs.toFixed(0)} | ${m.cpuRatio.toFixed(2)}x |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
