#!/usr/bin/env node
// The Node versions swarm is checked on, in one place, and where their binaries come from. Node 24
// is the repository's own (the root devDependency `node`, so every pnpm script runs on it); the
// packed consumer and the examples also run on the lowest Node 22 that `engines` allows and on the
// newest Node 26. Those two come from the npm registry's `node` package (it picks the platform's
// binary) into .cache/node/<version>/, once per clone.
//
// Usage: node scripts/node-versions.mjs [22|24|26 ...]   installs what is missing, prints the paths
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The Node the repository brings (root devDependency `node`); .nvmrc names the same one. */
export const DEVELOPMENT_NODE = rootManifest.devDependencies.node;

/**
 * Exact Node versions by major: 22 is the floor of `engines.node` (>=22.12), so the claim is tested
 * as written; 24 is the development Node; 26 the newest release when last checked.
 */
export const NODE_VERSIONS = { 22: '22.12.0', 24: DEVELOPMENT_NODE, 26: '26.10.0' };

/** The exact version for a major (`22`) or an exact version given as is (`22.12.0`). */
export function nodeVersion(majorOrVersion) {
  const key = String(majorOrVersion);
  if (/^\d+\.\d+\.\d+$/.test(key)) return key;
  const version = NODE_VERSIONS[key];
  if (!version) {
    throw new Error(`No Node ${key} here; choose one of ${Object.keys(NODE_VERSIONS).join(', ')}`);
  }
  return version;
}

/** `node --version` of a binary, without the `v`; undefined when it does not run. */
function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * The path of a `node` binary of exactly `version` (or a major), installing it from the npm
 * registry into .cache/node/<version>/ when missing. The development Node is the one pnpm installed.
 */
export function ensureNode(majorOrVersion) {
  const version = nodeVersion(majorOrVersion);
  if (version === DEVELOPMENT_NODE) {
    const own = join(root, 'node_modules', '.bin', 'node');
    if (versionOf(own) !== version) {
      throw new Error(`${own} is not Node ${version}: run pnpm install at the repository root`);
    }
    return own;
  }
  const dir = join(root, '.cache', 'node', version);
  const binary = join(dir, 'node_modules', '.bin', 'node');
  if (versionOf(binary) === version) return binary;

  // Installed beside its final place and renamed into it, so an interrupted install is never used.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      // A stalled download is retried after two minutes, not npm's default five.
      '--fetch-timeout=120000',
      `node@${version}`,
    ],
    { encoding: 'utf8' },
  );
  const staged = join(staging, 'node_modules', '.bin', 'node');
  const got = install.status === 0 ? versionOf(staged) : undefined;
  if (got !== version) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `npm install node@${version} ${install.status === 0 ? `gave Node ${got ?? 'that does not run'}` : `exited with ${install.status ?? install.signal}`}\n${install.stdout}${install.stderr}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  console.log(`[node] installed Node ${version} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  if (!existsSync(binary)) throw new Error(`Node ${version} is missing at ${binary} after install`);
  return binary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const wanted = process.argv.slice(2);
  try {
    for (const major of wanted.length > 0 ? wanted : Object.keys(NODE_VERSIONS)) {
      const binary = ensureNode(major);
      console.log(`[node] Node ${versionOf(binary)}: ${binary}`);
    }
  } catch (error) {
    console.error(`[node] ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
