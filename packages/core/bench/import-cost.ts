// What importing @swarm/core costs a process: RSS and time after import, each measured in fresh
// child processes beside importing `openai` alone, and whether any Anthropic SDK code was loaded.
// Needs the built package (`pnpm bench` builds first). Run with `pnpm --filter @swarm/core bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, verdict } from './measure.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const coreEntry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;

const variants = {
  nothing: [],
  openai: ['openai'],
  core: [coreEntry],
} as const satisfies Record<string, readonly string[]>;
type Variant = keyof typeof variants;

interface Sample {
  rss: number;
  ms: number;
}

// One fresh process: import the modules, then report RSS and the time the imports took.
function sample(modules: readonly string[]): Sample {
  const code = `
    const start = performance.now();
    for (const m of ${JSON.stringify(modules)}) await import(m);
    const ms = performance.now() - start;
    process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss, ms }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: packageDir,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`import of ${modules.join(', ')} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout) as Sample;
}

// Which Anthropic SDK modules a process resolves while importing `modules` (a resolve hook listens).
function anthropicModulesLoaded(modules: readonly string[]): number {
  const hooks = `
    let port;
    export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (resolved.url.includes('@anthropic-ai')) port.postMessage(resolved.url);
      return resolved;
    }
  `;
  const code = `
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const seen = new Set();
    port1.on('message', (url) => seen.add(url));
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), {
      data: { port: port2 },
      transferList: [port2],
    });
    for (const m of ${JSON.stringify(modules)}) await import(m);
    await new Promise((resolve) => setTimeout(resolve, 100));
    port1.close();
    process.stdout.write(String(seen.size));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: packageDir,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`import of ${modules.join(', ')} failed:\n${child.stderr}`);
  return Number(child.stdout);
}

function main(): void {
  const names = Object.keys(variants) as Variant[];
  const samples = new Map<Variant, Sample[]>(names.map((name) => [name, []]));
  for (let round = 0; round < 5; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) samples.get(name)!.push(sample(variants[name]));
  }
  const rss = (name: Variant) => median(samples.get(name)!.map((s) => s.rss)) / 2 ** 20;
  const ms = (name: Variant) => median(samples.get(name)!.map((s) => s.ms));
  const openaiMb = rss('openai') - rss('nothing');
  const coreMb = rss('core') - rss('nothing');
  const overOpenAI = rss('core') - rss('openai');
  console.log('Importing @swarm/core (fresh child processes, median of 5)');
  console.log(
    `  RSS over an empty process: openai +${openaiMb.toFixed(1)} MB, @swarm/core +${coreMb.toFixed(1)} MB (${(coreMb / openaiMb).toFixed(2)}x openai's)`,
  );
  console.log(
    `  @swarm/core over openai alone: ${overOpenAI >= 0 ? '+' : ''}${overOpenAI.toFixed(1)} MB (target <= 15 MB: ${verdict(overOpenAI <= 15)})`,
  );
  console.log(
    `  import time: openai ${ms('openai').toFixed(0)} ms, @swarm/core ${ms('core').toFixed(0)} ms (${(ms('core') / ms('openai')).toFixed(2)}x)`,
  );
  const anthropic = anthropicModulesLoaded([coreEntry]);
  console.log(
    `  Anthropic SDK modules loaded by the import: ${anthropic} (target: none until an Anthropic model is used: ${verdict(anthropic === 0)})`,
  );
}

main();
