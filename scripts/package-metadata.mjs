#!/usr/bin/env node
// The publishing metadata every public package under packages/* and apps/* must carry, checked
// (default) or filled in (`--fix`). Packages are discovered, never listed, so a new package is held
// to the same rules the day it lands: `node scripts/package-metadata.mjs --fix && pnpm install`
// brings it in line.
//
// Rules: a LICENSE identical to the root one (npm and pnpm pack only a package's own files);
// `repository` with `directory`, `homepage` and `bugs`; `publishConfig.access: public` (scoped
// packages); `files` naming what is published; `engines.node` as the root's. A library (it has
// `exports`) also has top-level `main` and `types` matching `exports["."]` for tools that ignore
// `exports`, and zod as a peer dependency (never a plain one) wherever zod types can cross the API:
// the package imports zod, or it depends on a workspace package that has zod as a peer. A command
// (`bin`, no `exports`) has no API to share zod across: it brings the zod it runs on as a plain
// dependency, and every `bin` file is inside `files`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Placeholder home of the repository until it has a public one; change it here only. */
export const REPOSITORY = 'https://github.com/swarm-ts/swarm';
/** The zod versions the packages support: the lowest is installed by the packed-install test. */
export const ZOD_PEER_RANGE = '^4.0.0';

/**
 * Whether `range` may be a package's zod peer: ZOD_PEER_RANGE, or a higher floor of zod 4 (`^4.x.y`)
 * for a package whose own dependencies need a newer zod (@swarm/ai-sdk: `ai` peers zod ^4.1.8).
 * `--fix` keeps a raised floor.
 */
export function acceptedZodPeer(range) {
  return range === ZOD_PEER_RANGE || /^\^4\.\d+\.\d+$/.test(range ?? '');
}

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The folders whose packages may be published: libraries, and the apps (the `swarm` command). */
const PACKAGE_FOLDERS = ['packages', 'apps'];

/**
 * Every package directory under packages/ and apps/ that is published (not `private`), in name
 * order; `command` marks a package that is only a command (`bin` and no `exports`).
 */
export function publicPackages() {
  return PACKAGE_FOLDERS.flatMap((folder) => {
    const dir = join(root, folder);
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'package.json')))
      .map((d) => {
        const path = join(dir, d.name);
        const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
        const command = manifest.exports === undefined && manifest.bin !== undefined;
        return { dir: path, rel: relative(root, path).split('\\').join('/'), manifest, command };
      });
  })
    .filter((p) => p.manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

function importsZod(dir) {
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).some((e) => {
      const p = join(d, e.name);
      if (e.isDirectory()) return walk(p);
      return (
        /\.tsx?$/.test(e.name) &&
        !/\.test\.tsx?$/.test(e.name) &&
        /from ['"]zod['"]/.test(readFileSync(p, 'utf8'))
      );
    });
  return existsSync(join(dir, 'src')) && walk(join(dir, 'src'));
}

/** Whether zod must be a peer of `pkg`: it imports zod, or a workspace dependency peers zod (transitively). */
function needsZodPeer(pkg, byName, seen = new Set()) {
  if (seen.has(pkg.manifest.name)) return false;
  seen.add(pkg.manifest.name);
  if (importsZod(pkg.dir) || pkg.manifest.dependencies?.zod) return true;
  return Object.keys(pkg.manifest.dependencies ?? {}).some((dep) => {
    const other = byName.get(dep);
    return other !== undefined && needsZodPeer(other, byName, seen);
  });
}

/** The fields `pkg` must have, with the values they must have. */
function expected(pkg, byName, engines) {
  const main = pkg.manifest.exports?.['.'];
  const want = {
    repository: { type: 'git', url: `git+${REPOSITORY}.git`, directory: pkg.rel },
    homepage: `${REPOSITORY}/tree/main/${pkg.rel}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    engines,
    ...(!pkg.command && { main: main?.default, types: main?.types }),
    publishConfig: { access: 'public' },
  };
  return { want, zodPeer: !pkg.command && needsZodPeer(pkg, byName) };
}

/** The files a `bin` field names, as paths relative to the package. */
function binFiles(manifest) {
  const bin = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  return Object.values(bin).map((file) => file.replace(/^\.\//, ''));
}

/** Puts `key` right after `after` (or at the end) in a copy of `obj`, keeping every other key's place. */
function insertAfter(obj, after, key, value) {
  if (key in obj) return { ...obj, [key]: value };
  const out = {};
  let placed = false;
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v;
    if (k === after) {
      out[key] = value;
      placed = true;
    }
  }
  if (!placed) out[key] = value;
  return out;
}

const ANCHORS = {
  repository: 'license',
  homepage: 'repository',
  bugs: 'homepage',
  engines: 'type',
  main: 'engines',
  types: 'main',
  publishConfig: 'files',
};

/** Problems with every public package, as lines naming the package and the field; fixes them when `fix`. */
export function checkMetadata({ fix = false } = {}) {
  const packages = publicPackages();
  const byName = new Map(packages.map((p) => [p.manifest.name, p]));
  const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');
  const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = [];
  for (const pkg of packages) {
    const name = pkg.manifest.name;
    const { want, zodPeer } = expected(pkg, byName, engines);
    let m = pkg.manifest;
    for (const [key, value] of Object.entries(want)) {
      if (value === undefined) {
        problems.push(`${name}: exports["."] needs "types" and "default" (main/types are taken from it)`);
        continue;
      }
      if (JSON.stringify(m[key]) !== JSON.stringify(value)) {
        problems.push(`${name}: "${key}" should be ${JSON.stringify(value)}`);
        m = insertAfter(m, ANCHORS[key], key, value);
      }
    }
    if (zodPeer) {
      if (m.dependencies?.zod) {
        problems.push(`${name}: zod must be a peer dependency, not a dependency`);
        const { zod: _zod, ...rest } = m.dependencies;
        m = { ...m, dependencies: rest };
      }
      if (!acceptedZodPeer(m.peerDependencies?.zod)) {
        problems.push(`${name}: peerDependencies.zod should be "${ZOD_PEER_RANGE}"`);
        m = insertAfter(m, 'dependencies', 'peerDependencies', {
          ...m.peerDependencies,
          zod: ZOD_PEER_RANGE,
        });
      }
      if (!m.devDependencies?.zod) {
        problems.push(`${name}: devDependencies.zod should be "catalog:" (to build and test)`);
        m = {
          ...m,
          devDependencies: Object.fromEntries(
            Object.entries({ ...m.devDependencies, zod: 'catalog:' }).sort(),
          ),
        };
      }
    }
    if (pkg.command && m.peerDependencies?.zod) {
      problems.push(`${name}: a command brings its own zod: make it a dependency, not a peer`);
    }
    const files = Array.isArray(m.files) ? m.files.map((f) => f.replace(/^\.\//, '').replace(/\/$/, '')) : [];
    if (files.length === 0) problems.push(`${name}: "files" should list what is published (e.g. ["dist"])`);
    for (const file of binFiles(m)) {
      if (!files.some((f) => file === f || file.startsWith(`${f}/`))) {
        problems.push(`${name}: the bin ${file} is not inside "files" ${JSON.stringify(m.files ?? [])}`);
      }
    }
    const license = join(pkg.dir, 'LICENSE');
    if (!existsSync(license) || readFileSync(license, 'utf8') !== rootLicense) {
      problems.push(`${name}: ${pkg.rel}/LICENSE should be a copy of the root LICENSE`);
      if (fix) writeFileSync(license, rootLicense);
    }
    if (m.license !== 'MIT') problems.push(`${name}: "license" should be "MIT" (the root LICENSE)`);
    if (fix && m !== pkg.manifest)
      writeFileSync(join(pkg.dir, 'package.json'), `${JSON.stringify(m, null, 2)}\n`);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fix = process.argv.includes('--fix');
  const problems = checkMetadata({ fix });
  if (problems.length === 0) {
    console.log(`package metadata: ${publicPackages().length} packages ok`);
  } else if (fix) {
    console.log(
      `package metadata: fixed\n  ${problems.join('\n  ')}\nRun pnpm install to update the lockfile.`,
    );
  } else {
    console.error(
      `package metadata:\n  ${problems.join('\n  ')}\nFix with: node scripts/package-metadata.mjs --fix && pnpm install`,
    );
    process.exitCode = 1;
  }
}
