#!/usr/bin/env node
// `node scripts/check-browser-entries.mjs`: bundles every entry point that must run in a browser or
// an edge runtime (from the BUILT dist, as users get it) with esbuild for the browser, no node
// polyfills, and fails naming the entry and the import chain when any Node.js builtin (`node:*` or
// a bare `fs`, `path`, ...) is reachable from it, statically or through a dynamic import(). Run
// `pnpm build` first. `@swarm/queue`, `@swarm/mcp` and `apps/cli` are node-only and not checked.
//
// Everything an entry reaches is bundled, third-party code too (the openai and Anthropic SDKs that
// core loads at a provider's first call, zod, @opentelemetry/api): a browser app ships them, so a
// node import in them would break the app just the same.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

const packagesDir = join(root, 'packages');

/**
 * Packages that are node-only by design, and not checked: @swarm/queue runs on BullMQ and Redis,
 * @swarm/mcp starts MCP servers as child processes and serves over Node's http.
 */
export const nodeOnlyPackages = ['mcp', 'queue'];

/**
 * The entry points that must run in a browser, as [package directory, subpath of its exports map]:
 * @swarm/core and @swarm/core/testing, then the main entry of every other package (so a new
 * topology package is checked from the start) but the node-only ones.
 */
export const browserEntries = [
  ['core', '.'],
  ['core', './testing'],
  ...readdirSync(packagesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(packagesDir, d.name, 'package.json')))
    .map((d) => d.name)
    .filter((name) => name !== 'core' && !nodeOnlyPackages.includes(name))
    .sort()
    .map((name) => [name, '.']),
];

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isBuiltin = (path) =>
  path.startsWith('node:') || builtins.has(path) || builtins.has(path.split('/')[0]);

/** `@swarm/core/testing` for ['core', './testing']. */
export function entryName([dir, subpath]) {
  const { name } = readManifest(dir);
  return subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
}

function readManifest(dir) {
  return JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8'));
}

/** The built file the exports map gives a browser for the entry. */
function entryFile([dir, subpath]) {
  const target = readManifest(dir).exports?.[subpath];
  const file = typeof target === 'string' ? target : (target?.browser ?? target?.import ?? target?.default);
  if (typeof file !== 'string') throw new Error(`packages/${dir}/package.json exports no "${subpath}".`);
  const path = join(packagesDir, dir, file);
  if (!existsSync(path)) throw new Error(`${relative(root, path)} is missing: run \`pnpm build\` first.`);
  return path;
}

/**
 * Bundles one entry for the browser and returns the node builtins it reaches, each with the chain of
 * files from the entry to the import (paths relative to the repository), or [] when there is none.
 */
export async function nodeImportsOf(entry) {
  const file = entryFile(entry);
  const found = [];
  const result = await build({
    entryPoints: [file],
    absWorkingDir: root,
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    outdir: join(root, 'node_modules', '.cache', 'check-browser-entries'),
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        // Keeps a builtin out of the bundle (esbuild would fail on it for the browser) and records who asked.
        name: 'record-node-builtins',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (!isBuiltin(args.path)) return undefined;
            found.push({ module: args.path, importer: args.importer, kind: args.kind });
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const start = relative(root, file);
  return found.map(({ module, importer, kind }) => ({
    module,
    kind,
    chain: [...chainTo(result.metafile, start, relative(root, importer)), module],
  }));
}

// The shortest chain of inputs from `start` to `target` in esbuild's metafile (breadth first).
function chainTo(metafile, start, target) {
  const from = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === target) break;
    for (const { path } of metafile.inputs[current]?.imports ?? []) {
      if (from.has(path) || !(path in metafile.inputs)) continue;
      from.set(path, current);
      queue.push(path);
    }
  }
  if (!from.has(target)) return [start, '...', target];
  const chain = [];
  for (let at = target; at !== undefined; at = from.get(at)) chain.unshift(at);
  return chain;
}

/** Checks every browser entry; returns one message per node import found, [] when all are clean. */
export async function checkBrowserEntries(entries = browserEntries) {
  const problems = [];
  for (const entry of entries) {
    for (const { module, kind, chain } of await nodeImportsOf(entry)) {
      problems.push(`${entryName(entry)} reaches ${module} (${kind}): ${chain.join(' -> ')}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const problems = await checkBrowserEntries();
    if (problems.length > 0) {
      console.error(
        `Node.js builtins reachable from browser entries (bundled with esbuild, platform browser):`,
      );
      for (const problem of problems) console.error(`  ${problem}`);
      process.exit(1);
    }
    console.log(`${browserEntries.length} browser entries reach no Node.js builtin.`);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
