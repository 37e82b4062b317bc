#!/usr/bin/env node
// Checks the packages as users receive them: every public package under packages/* (discovered,
// never listed) is built, packed with `pnpm pack`, linted with publint and arethetypeswrong, then
// installed from the tarballs into a throwaway npm project outside the workspace together with the
// LOWEST zod the packages support, and a consumer is type-checked (moduleResolution nodenext and
// bundler, without @types/node, skipLibCheck off) and run with node, through import and require().
// Packages that peer on the AI SDK (`ai`) get a second consumer with what the AI SDK itself needs:
// its lowest zod (^4.1.8), @types/node and @types/json-schema.
// Last, `changeset version` runs on a throwaway copy of the repository and `pnpm publish --dry-run`
// over its packages, so a release is rehearsed without touching this checkout.
//
// Usage: node scripts/packed-install.mjs [--keep]   (--keep leaves the temp directory for a look)
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkMetadata, publicPackages, root, ZOD_PEER_RANGE } from './package-metadata.mjs';

const keep = process.argv.includes('--keep');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();

/** Runs a command quietly; on failure prints what it said and stops the whole check. */
function run(cmd, args, { cwd = root } = {}) {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${[cmd, ...args].join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}`);
  }
  return result.stdout;
}

/** Logs the start of a step with the time since the check began. */
function step(title) {
  console.log(`[packed] ${title} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

/** The lowest version a `^x.y.z` / `>=x.y.z` range allows. */
function lowest(range) {
  const match = /^(?:\^|>=|~)?\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (!match) throw new Error(`Cannot tell the lowest version of the range ${JSON.stringify(range)}`);
  return match[1];
}

/**
 * Import specifiers of every entry point in a package's exports map, but those that import an
 * optional peer dependency (`@swarm/core/testing/vitest` needs vitest): a consumer without that
 * peer never imports them, so the consumer here does not either.
 */
function entryPoints(pkg) {
  const { manifest, dir } = pkg;
  const optional = Object.keys(manifest.peerDependenciesMeta ?? {}).filter(
    (name) => manifest.peerDependenciesMeta[name]?.optional,
  );
  return Object.entries(manifest.exports ?? { '.': {} })
    .filter(([key]) => key !== './package.json' && !key.includes('*'))
    .filter(([, target]) => {
      const file = typeof target === 'string' ? target : target?.default;
      if (!file || optional.length === 0) return true;
      const code = readFileSync(join(dir, file), 'utf8');
      return !optional.some((peer) => code.includes(`from "${peer}"`) || code.includes(`from '${peer}'`));
    })
    .map(([key]) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

/** What a user writes: schemas from THEIR zod crossing core's API, checked by types and at run time. */
const SCENARIO = `import { Agent, generateObject, tool } from '@swarm/core';
import { object, reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { cosineSimilarity, wordVectorEmbedder } from '@swarm/embeddings';
import { z } from 'zod';

const Person = z.object({ name: z.string(), age: z.number().int() });

/** Runs core offline with the consumer's zod; resolves to a summary or rejects. */
export async function scenario(): Promise<string> {
  const { object: person } = await generateObject(new ScriptedModel([object({ name: 'Ada', age: 36 })]), {
    schema: Person,
    prompt: 'Who wrote the first program?',
  });
  const age: number = person.age;
  if (person.name !== 'Ada' || age !== 36) throw new Error('generateObject returned ' + JSON.stringify(person));

  const add = tool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => String(a + b),
  });
  const agent = new Agent({
    name: 'adder',
    instructions: 'Add.',
    model: new ScriptedModel([toolCall('add', { a: 2, b: 3 }), reply('5')]),
    tools: [add],
  });
  const result = await agent.run('2 + 3?');
  if (result.output !== '5') throw new Error('agent answered ' + JSON.stringify(result.output));

  // The word vectors are a data file next to dist/: found (read lazily) in the installed package.
  const [car, automobile, banana] = await wordVectorEmbedder({ lexicalWeight: 0 }).embed(['car', 'automobile', 'banana']);
  if (!(cosineSimilarity(car!, automobile!) > cosineSimilarity(car!, banana!) + 0.2)) {
    throw new Error('the packaged word vectors do not tell car from banana');
  }
  return 'generateObject and a zod tool work with the installed zod; the packaged word vectors load';
}
`;

/** The consumer's entry: every entry point exports something, then the scenario runs. */
const MAIN = `import { entries } from './entries.js';
import { scenario } from './scenario.js';

for (const [name, entry] of Object.entries(entries)) {
  if (Object.keys(entry).length === 0) throw new Error(\`\${name} exports nothing at run time\`);
}
scenario().then((said) => console.log(\`consumer ok: \${Object.keys(entries).length} entry points; \${said}\`));
`;

/** CommonJS users on Node 22.12+: require() of every entry point works through require(esm). */
const CHECK_REQUIRE = `for (const name of require('./entries.json')) {
  const entry = require(name);
  if (Object.keys(entry).length === 0) throw new Error(\`require(\${name}) gave no exports\`);
}
console.log('require(esm) ok');
`;

/** The @types packages a consumer may be given, at the versions it gets. */
const TYPE_PACKAGES = { '@types/node': '22.20.7', '@types/json-schema': '7.0.15' };

/**
 * The consumer of the packages that peer on the AI SDK. The AI SDK's own declarations import
 * `node:http` (ai) and `json-schema` (@ai-sdk/provider) types without depending on them, so a user
 * who type-checks libraries needs @types/node and @types/json-schema, as for `ai` alone; ours add
 * nothing to that (the .d.ts leak check above still holds for them).
 */
const AI_SDK_CONSUMER = {
  typePackages: ['@types/node', '@types/json-schema'],
  scenario: `import { aiSdkModel, toUIMessageStream } from '@swarm/ai-sdk';
import { Agent, runStream } from '@swarm/core';
import { readUIMessageStream } from 'ai';

const finish = { unified: 'stop', raw: 'stop' } as const;
const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

/** An AI SDK model streams through an agent; the run reads back with the installed ai's reader. */
export async function scenario(): Promise<string> {
  const languageModel: Parameters<typeof aiSdkModel>[0] = {
    specificationVersion: 'v4',
    provider: 'inline.chat',
    modelId: 'inline-model',
    supportedUrls: {},
    doGenerate: async () => ({ content: [{ type: 'text', text: 'Hello.' }], finishReason: finish, usage, warnings: [] }),
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hello.' });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: finish, usage });
          controller.close();
        },
      }),
    }),
  };
  const agent = new Agent({ name: 'greeter', model: aiSdkModel(languageModel) });
  let parts: { type: string; text?: string }[] = [];
  for await (const message of readUIMessageStream({ stream: toUIMessageStream(runStream((o) => agent.run('Hi.', o))) })) {
    parts = message.parts;
  }
  const text = parts.find((p) => p.type === 'text');
  if (text?.text !== 'Hello.') throw new Error('the UI message has ' + JSON.stringify(parts));
  return 'aiSdkModel streams through an agent; toUIMessageStream reads back with the installed ai';
}
`,
};

/**
 * Places in a package's .d.ts files that only type-check with @types/node installed: the NodeJS
 * namespace, `node:` imports and `reference types="node"`. Allowed only when the package itself
 * depends on @types/node (then its users get it). The consumer type-check below would fail on them
 * too; this names the file and line.
 */
function nodeTypeLeaks(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.dependencies?.['@types/node'] || manifest.peerDependencies?.['@types/node']) return [];
  const pattern = /\bNodeJS\.|from\s+['"]node:|import\(['"]node:|reference\s+types=["']node["']/;
  const leaks = [];
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!String(file).endsWith('.d.ts')) continue;
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) leaks.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return leaks;
}

/** Whether a package's public types come from the AI SDK (it peers on `ai`). */
function usesAiSdk(pkg) {
  return Boolean(pkg.manifest.peerDependencies?.ai);
}

/** Compares two `x.y.z` versions: negative, zero or positive, as `a` is lower, equal or higher. */
function compareVersions(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * Installs the `checked` packages (and the workspace packages they depend on) from their tarballs
 * with `zodVersion` and `typePackages` (the @types a user of them needs) into a fresh npm project,
 * then type-checks every entry point of the `checked` packages and `scenario` (nodenext and
 * bundler, skipLibCheck off) and runs them through import and require().
 */
function checkConsumer({ name, packages, checked, zodVersion, typePackages, scenario }) {
  const withTypes = typePackages.length === 0 ? 'no @types' : typePackages.join(', ');
  step(`${name}: install the tarballs with zod ${zodVersion} (${withTypes}) into a fresh npm project`);
  const consumer = join(work, name);
  mkdirSync(join(consumer, 'src'), { recursive: true });
  // The checked packages and the workspace packages they depend on, all from their tarballs.
  const byName = new Map(packages.map((p) => [p.manifest.name, p]));
  const installed = new Set();
  const add = (pkg) => {
    if (installed.has(pkg)) return;
    installed.add(pkg);
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) if (byName.has(dep)) add(byName.get(dep));
  };
  for (const pkg of checked) add(pkg);
  const files = Object.fromEntries([...installed].map((p) => [p.manifest.name, `file:${p.tarball}`]));
  const types = Object.fromEntries(typePackages.map((t) => [t, TYPE_PACKAGES[t]]));
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify(
      {
        name: `swarm-${name}`,
        private: true,
        type: 'module',
        dependencies: { ...files, zod: zodVersion },
        devDependencies: types,
        overrides: files,
      },
      null,
      2,
    )}\n`,
  );
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error'],
    {
      cwd: consumer,
    },
  );
  const installedZod = JSON.parse(
    readFileSync(join(consumer, 'node_modules', 'zod', 'package.json'), 'utf8'),
  ).version;
  if (installedZod !== zodVersion) throw new Error(`zod ${installedZod} was installed, not ${zodVersion}`);
  if (!typePackages.includes('@types/node') && existsSync(join(consumer, 'node_modules', '@types', 'node')))
    throw new Error('@types/node got installed');
  const nested = spawnSync('find', ['.', '-path', '*/node_modules/zod/package.json'], {
    cwd: consumer,
    encoding: 'utf8',
  });
  const zodCopies = nested.stdout.trim().split('\n').filter(Boolean);
  if (zodCopies.length !== 1) throw new Error(`expected one zod, found ${zodCopies.join(', ')}`);

  step(`${name}: type-check (nodenext, bundler; ${withTypes}) and run it`);
  const specifiers = checked.flatMap((p) => entryPoints(p));
  writeFileSync(
    join(consumer, 'src', 'entries.ts'),
    [
      ...specifiers.map((s, i) => `import * as entry${i} from '${s}';`),
      '',
      '/** Every entry point of every package, by specifier. */',
      'export const entries: Record<string, object> = {',
      ...specifiers.map((s, i) => `  '${s}': entry${i},`),
      '};',
      '',
    ].join('\n'),
  );
  writeFileSync(join(consumer, 'src', 'scenario.ts'), scenario);
  writeFileSync(join(consumer, 'src', 'main.ts'), MAIN);
  writeFileSync(join(consumer, 'entries.json'), `${JSON.stringify(specifiers)}\n`);
  writeFileSync(join(consumer, 'check-require.cjs'), CHECK_REQUIRE);
  // No "lib": TypeScript's default (ES + DOM) is where a consumer without @types/node gets
  // AbortSignal and fetch; "types" keeps any other @types package out, skipLibCheck off checks our .d.ts.
  const compilerOptions = {
    target: 'ES2022',
    strict: true,
    skipLibCheck: false,
    types: typePackages.filter((t) => t === '@types/node').map(() => 'node'),
    rootDir: 'src',
  };
  const configs = {
    'tsconfig.nodenext.json': {
      ...compilerOptions,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      outDir: 'dist',
    },
    'tsconfig.bundler.json': {
      ...compilerOptions,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      noEmit: true,
    },
  };
  for (const [file, options] of Object.entries(configs)) {
    writeFileSync(
      join(consumer, file),
      `${JSON.stringify({ compilerOptions: options, include: ['src'] }, null, 2)}\n`,
    );
    run(process.execPath, [tsc, '-p', file], { cwd: consumer });
  }
  console.log(run(process.execPath, ['dist/main.js'], { cwd: consumer }).trim());
  console.log(run(process.execPath, ['check-require.cjs'], { cwd: consumer }).trim());
}

const work = mkdtempSync(join(tmpdir(), 'swarm-packed-'));
try {
  step('package metadata');
  const problems = checkMetadata();
  if (problems.length > 0) {
    throw new Error(
      `package metadata:\n  ${problems.join('\n  ')}\nFix with: node scripts/package-metadata.mjs --fix`,
    );
  }
  const packages = publicPackages();

  step(`build ${packages.length} packages`);
  run('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only']);

  step('pack');
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  for (const pkg of packages) {
    const { name, version } = pkg.manifest;
    pkg.tarball = join(tarballs, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: pkg.dir });
    if (!existsSync(pkg.tarball)) throw new Error(`pnpm pack did not write ${pkg.tarball}`);
    const unpacked = join(work, 'unpacked', pkg.rel);
    mkdirSync(unpacked, { recursive: true });
    run('tar', ['-xzf', pkg.tarball, '-C', unpacked]);
    const packed = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    const specs = Object.values({ ...packed.dependencies, ...packed.peerDependencies });
    const missing = ['LICENSE', 'README.md'].filter((f) => !existsSync(join(unpacked, 'package', f)));
    if (missing.length > 0) throw new Error(`${name}: the tarball lacks ${missing.join(', ')}`);
    if (specs.some((s) => /^(workspace|catalog):/.test(s))) {
      throw new Error(`${name}: the tarball kept a workspace/catalog specifier`);
    }
    if (packed.dependencies?.zod) throw new Error(`${name}: zod is a plain dependency of the tarball`);
    const leaks = nodeTypeLeaks(join(unpacked, 'package'));
    if (leaks.length > 0) {
      throw new Error(
        `${name}: public types need @types/node, which it does not depend on:\n  ${leaks.join('\n  ')}`,
      );
    }
  }

  step('publint + attw');
  for (const pkg of packages) {
    run(bin('publint'), [pkg.tarball, '--strict']);
    // ESM only on purpose (DESIGN 2): the CommonJS resolutions (node10, node16 from CJS) are out of
    // scope, which is exactly what the esm-only profile leaves out. node16-ESM and bundler must pass.
    run(bin('attw'), [pkg.tarball, '--profile', 'esm-only', '--format', 'table-flipped']);
  }

  // Packages whose public types come from the AI SDK are checked in a consumer of their own: `ai`
  // needs zod ^4.1.8 and its declarations need Node's and json-schema's types (see AI_SDK_CONSUMER).
  const aiSdk = packages.filter(usesAiSdk);
  const plain = packages.filter((p) => !usesAiSdk(p));
  checkConsumer({
    name: 'consumer',
    packages,
    checked: plain,
    zodVersion: lowest(ZOD_PEER_RANGE),
    typePackages: [],
    scenario: SCENARIO,
  });
  if (aiSdk.length > 0) {
    const zodVersion = aiSdk
      .map((p) => lowest(p.manifest.peerDependencies?.zod ?? ZOD_PEER_RANGE))
      .reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
    checkConsumer({
      name: 'ai-sdk-consumer',
      packages,
      checked: aiSdk,
      zodVersion,
      typePackages: AI_SDK_CONSUMER.typePackages,
      scenario: AI_SDK_CONSUMER.scenario,
    });
  }

  step('changeset version + pnpm publish --dry-run on a throwaway copy');
  const copy = join(work, 'release');
  const tracked = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  for (const pkg of packages) cpSync(join(pkg.dir, 'dist'), join(copy, pkg.rel, 'dist'), { recursive: true });
  run(bin('changeset'), ['version'], { cwd: copy });
  const versions = new Set(
    packages.map((p) => JSON.parse(readFileSync(join(copy, p.rel, 'package.json'), 'utf8')).version),
  );
  if (versions.size !== 1)
    throw new Error(`changeset version left several versions: ${[...versions].join(', ')}`);
  // pnpm resolves workspace:* from installed workspace links, so the copy is installed (offline
  // store), devDependencies included: a package's tests may use another workspace package.
  run(
    'pnpm',
    ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts', '--filter=./packages/*'],
    {
      cwd: copy,
    },
  );
  const published = run('pnpm', ['-r', '--filter=./packages/*', 'publish', '--dry-run', '--no-git-checks'], {
    cwd: copy,
  });
  const unpublished = packages.filter((p) => !published.includes(`${p.manifest.name}@`));
  if (unpublished.length > 0) {
    throw new Error(`publish --dry-run skipped ${unpublished.map((p) => p.manifest.name).join(', ')}`);
  }
  console.log(`[packed] publish --dry-run packs ${packages.length} packages at ${[...versions].join(', ')}`);

  step(`all green`);
} catch (error) {
  console.error(`[packed] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`[packed] kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
