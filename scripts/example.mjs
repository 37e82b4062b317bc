#!/usr/bin/env node
// `pnpm example <name> [args...]`: builds the packages the example uses (turbo, cached), then runs
// the example's `start` script with its own dependencies on the PATH. Straight after
// `pnpm install`, no separate build step. Examples are discovered from examples/*.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const examplesDir = join(root, 'examples');
const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(examplesDir, d.name, 'package.json')))
  .map((d) => d.name)
  .sort();

const [name, ...args] = process.argv.slice(2);
if (!name || !examples.includes(name)) {
  if (name) console.error(`No example "${name}".`);
  console.error(`Usage: pnpm example <name>, one of: ${examples.join(', ')}`);
  process.exit(1);
}

const dir = join(examplesDir, name);
const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const start = manifest.scripts?.start;
if (!start) {
  console.error(`examples/${name}/package.json has no "start" script.`);
  process.exit(1);
}

// Build what the example depends on (not the example itself); print turbo's output only on failure.
const build = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', `--filter=${manifest.name}^...`, '--output-logs=errors-only'],
  { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout}${build.stderr}`);
  console.error(`error: building the packages ${name} uses failed`);
  process.exit(build.status ?? 1);
}

const path = [join(dir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin'), process.env.PATH].join(
  delimiter,
);
const command = [start, ...args.map((a) => `'${a.replaceAll("'", "'\\''")}'`)].join(' ');
const run = spawnSync(command, {
  cwd: dir,
  stdio: 'inherit',
  shell: true,
  env: { ...process.env, PATH: path },
});
process.exit(run.status ?? 1);
