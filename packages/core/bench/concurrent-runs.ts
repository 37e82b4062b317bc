// 1,000 concurrent runs (one model call each) against a model that takes 20 ms per call: our Agent
// beside the bare openai SDK (same in-memory client), each side in fresh child processes so that
// wall time and peak RSS are its own. The target is the steady state of a process serving bursts:
// each process warms up with bursts of the same size, then times several and keeps its median.
// The first burst of a process (mostly the JIT compiling each side's code) is printed beside it.
// Runs the built package, as users do (`pnpm bench` builds first). Run with
// `pnpm --filter @swarm/core bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, openaiModel } from '@swarm/core';
import { inMemoryOpenAI, median, verdict } from './measure.js';

const runs = 1_000;
const latencyMs = 20;
const warmBursts = 3;
const timedBursts = 5;
const processesPerSide = 6;
type Side = 'sdk' | 'agent';

interface Sample {
  /** Median over the timed bursts of a warm process. */
  wallMs: number;
  /** CPU time of a burst (user + system): what the wall time is made of on a busy machine. */
  cpuMs: number;
  /** The first burst of the process, after a warm-up of 4 x 100 runs only. */
  coldWallMs: number;
  peakRssMb: number;
  /** RSS after the last burst minus RSS before the first timed one. */
  grownMb: number;
}

interface Burst {
  wallMs: number;
  cpuMs: number;
}

// In the child: warm up, then time bursts of `runs` concurrent turns; print the sample.
async function child(side: Side): Promise<void> {
  const client = inMemoryOpenAI({ latencyMs });
  const agent = new Agent({ name: 'bench', model: openaiModel('gpt-bench', { client }) });
  const question = 'What is 2 + 3?';
  const sdk = async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-bench',
      messages: [{ role: 'user', content: question }],
    });
    return completion.choices[0]!.message.content;
  };
  const turn = side === 'sdk' ? sdk : async () => (await agent.run(question)).output;
  const burst = async (): Promise<Burst> => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const outputs = await Promise.all(Array.from({ length: runs }, turn));
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (outputs.some((output) => output !== 'The sum is 5.')) throw new Error(`${side}: a run went wrong.`);
    return { wallMs, cpuMs: (used.user + used.system) / 1000 };
  };
  for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 100 }, turn));
  const cold = await burst();
  for (let i = 1; i < warmBursts; i++) await burst();
  const before = process.memoryUsage().rss;
  const timed: Burst[] = [];
  for (let i = 0; i < timedBursts; i++) timed.push(await burst());
  const sample: Sample = {
    wallMs: median(timed.map((b) => b.wallMs)),
    cpuMs: median(timed.map((b) => b.cpuMs)),
    coldWallMs: cold.wallMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    grownMb: (process.memoryUsage().rss - before) / 2 ** 20,
  };
  process.stdout.write(JSON.stringify(sample));
}

function spawnSide(side: Side): Sample {
  const file = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, 'child', side], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${side} child failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Sample;
}

function parent(): void {
  const samples: Record<Side, Sample[]> = { sdk: [], agent: [] };
  for (let round = 0; round < processesPerSide; round++) {
    const order: Side[] = round % 2 === 0 ? ['sdk', 'agent'] : ['agent', 'sdk'];
    for (const side of order) samples[side].push(spawnSide(side));
  }
  // Each figure: the median per side, and the median of the Agent/SDK ratios of the same round
  // (two processes run back to back), which the drift of a shared machine skews least. On a busy
  // machine the wall time is mostly waiting for a core; the CPU time is what each side spent.
  const line = (label: string, key: keyof Sample, unit: string, target?: number) => {
    const of = (side: Side) => samples[side].map((s) => s[key]);
    const ratio = median(of('agent').map((value, round) => value / of('sdk')[round]!));
    const aim = target === undefined ? '' : ` (target <= ${target}x: ${verdict(ratio <= target)})`;
    console.log(
      `  ${label}: bare SDK ${median(of('sdk')).toFixed(0)} ${unit}, Agent ${median(of('agent')).toFixed(0)} ${unit}, ratio ${ratio.toFixed(3)}x${aim}`,
    );
  };
  console.log(
    `${runs} concurrent runs, ${latencyMs} ms per model call (in-memory client; ${processesPerSide} processes per side, each the median of ${timedBursts} bursts after ${warmBursts} warm-up bursts)`,
  );
  line('wall', 'wallMs', 'ms', 1.1);
  line('peak RSS', 'peakRssMb', 'MB', 1.1);
  line('CPU', 'cpuMs', 'ms');
  line('first burst of a process, wall (JIT warm-up included; not the target)', 'coldWallMs', 'ms');
  const grown = (side: Side) => median(samples[side].map((s) => s.grownMb)).toFixed(0);
  console.log(`  RSS grown over the timed bursts: bare SDK ${grown('sdk')} MB, Agent ${grown('agent')} MB`);
}

if (process.argv[2] === 'child') {
  child(process.argv[3] as Side).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  parent();
}
