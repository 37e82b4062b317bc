// 1,000 concurrent runs (one model call each) against a model that takes 20 ms per call: our Agent
// beside the bare openai SDK (same in-memory client), each side in fresh child processes so that
// wall time and peak RSS are its own. Run with `pnpm --filter @swarm/core bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, openaiModel } from '../src/index.js';
import { inMemoryOpenAI, median, verdict } from './measure.js';

const runs = 1_000;
const latencyMs = 20;
type Side = 'sdk' | 'agent';

interface Sample {
  wallMs: number;
  /** CPU time of the burst (user + system): what the wall time is made of on a busy machine. */
  cpuMs: number;
  peakRssMb: number;
  /** RSS after the burst minus RSS before it. */
  grownMb: number;
}

// In the child: warm up, then time `runs` concurrent turns; print wall time and peak RSS.
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
  for (let i = 0; i < 4; i++) await Promise.all(Array.from({ length: 100 }, turn));
  const before = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const outputs = await Promise.all(Array.from({ length: runs }, turn));
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const after = process.memoryUsage().rss;
  if (outputs.some((output) => output !== 'The sum is 5.')) throw new Error(`${side}: a run went wrong.`);
  const sample: Sample = {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    grownMb: (after - before) / 2 ** 20,
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
  for (let round = 0; round < 4; round++) {
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
    `${runs} concurrent runs, ${latencyMs} ms per model call (in-memory client, 4 processes per side)`,
  );
  line('wall', 'wallMs', 'ms', 1.1);
  line('peak RSS', 'peakRssMb', 'MB', 1.1);
  line('CPU', 'cpuMs', 'ms');
  const grown = (side: Side) => median(samples[side].map((s) => s.grownMb)).toFixed(0);
  console.log(`  RSS grown during the burst: bare SDK ${grown('sdk')} MB, Agent ${grown('agent')} MB`);
}

if (process.argv[2] === 'child') {
  child(process.argv[3] as Side).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  parent();
}
