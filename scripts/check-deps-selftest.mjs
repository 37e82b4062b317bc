// Proves `pnpm check:deps` would fail: runs the same dependency-cruiser rules on a throwaway tree
// holding one import circle (type-only) and one import up core's layers, and fails unless both are
// reported. Run by `pnpm check:deps` after the real check.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'swarm-check-deps-'));
const write = (path, text) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
try {
  copyFileSync(join(root, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  // A circle of types between two modules of a package.
  write('packages/demo/src/a.ts', "import type { B } from './b.js';\nexport interface A { b?: B }\n");
  write('packages/demo/src/b.ts', "import type { A } from './a.js';\nexport interface B { a?: A }\n");
  // The kernel reaching up to the Agent.
  write('packages/core/src/agent/agent.ts', 'export class Agent {}\n');
  write(
    'packages/core/src/kernel/run.ts',
    "import { Agent } from '../agent/agent.js';\nexport const made = new Agent();\n",
  );
  // A test may use every layer: not reported.
  write('packages/core/src/kernel/run.test.ts', "import { Agent } from '../agent/agent.js';\nnew Agent();\n");
  const bin = join(
    root,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'depcruise.cmd' : 'depcruise',
  );
  const run = spawnSync(
    bin,
    ['packages/*/src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    { cwd: dir, encoding: 'utf8' },
  );
  const output = `${run.stdout}${run.stderr}`;
  const problems = [];
  if (run.status === 0) problems.push('it exited 0');
  if (!/no-circular: packages\/demo\/src\/a\.ts/.test(output)) problems.push('it did not report the circle');
  if (!/core-kernel: packages\/core\/src\/kernel\/run\.ts/.test(output)) {
    problems.push('it did not report the kernel importing the Agent');
  }
  if (/run\.test\.ts/.test(output)) problems.push('it reported a test file');
  if (problems.length > 0) {
    console.error(
      `check:deps self-test: on a tree with a circle and an upward import, ${problems.join('; ')}.\n${output}`,
    );
    process.exit(1);
  }
  console.log('check:deps self-test: a circle and an import up a layer are both reported.');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
