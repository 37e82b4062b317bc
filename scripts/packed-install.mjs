#!/usr/bin/env node
// Checks the packages as users receive them: every public package under packages/* and apps/*
// (discovered, never listed) is built, packed with `pnpm pack`, linted with publint and
// arethetypeswrong, then the libraries are installed from the tarballs into a throwaway npm project
// outside the workspace together with the LOWEST zod the packages support, and a consumer is
// type-checked (moduleResolution nodenext and bundler, without @types/node, skipLibCheck off) and
// run through import and require() on every Node of scripts/node-versions.mjs (22, 24, 26).
// The command (@swarm/cli) is installed the three ways users get it, from a loopback registry that
// serves the tarballs by name: `npm i @swarm/cli` in a project then `npx swarm`, `npm i -g
// <tarball>` then its `swarm` bin, and `npx @swarm/cli` from an empty folder; on each of those
// Nodes each install runs a spec against a loopback mock provider (and prints its version, its
// help, and runs the demo offline).
// Packages that peer on the AI SDK (`ai`) get a second consumer with what the AI SDK itself needs:
// its lowest zod (^4.1.8), @types/node and @types/json-schema.
// Last, `changeset version` runs on a throwaway copy of the repository and `pnpm publish --dry-run`
// over its packages, so a release is rehearsed without touching this checkout.
//
// Usage: node scripts/packed-install.mjs [--keep]   (--keep leaves the temp directory for a look)
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureNode, NODE_VERSIONS } from './node-versions.mjs';
import { checkMetadata, publicPackages, root, ZOD_PEER_RANGE } from './package-metadata.mjs';
import { tarballRegistry } from './tarball-registry.mjs';

const keep = process.argv.includes('--keep');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();

/** Runs a command quietly; on failure prints what it said and stops the whole check. */
function run(cmd, args, { cwd = root, env = process.env } = {}) {
  const result = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${[cmd, ...args].join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}`);
  }
  return result.stdout;
}

/**
 * `run` for a command that talks to a server of this process (the tarball registry, the mock
 * provider): spawnSync would block the event loop those servers answer on.
 */
function runAsync(cmd, args, { cwd = root, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(stdout);
      process.stderr.write(`${stdout}${stderr}`);
      reject(new Error(`${[cmd, ...args].join(' ')} (in ${cwd}) exited with ${code ?? signal}`));
    });
  });
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

/** The package a bare import specifier names (`@scope/name/sub` -> `@scope/name`); undefined for a builtin. */
function packageOf(specifier) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages a package's JavaScript imports (static, dynamic and require), builtins left out. */
function importedPackages(dir) {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g;
  const found = new Set();
  for (const file of readdirSync(dir, { recursive: true })) {
    if (!/\.(m|c)?js$/.test(String(file)) || String(file).startsWith('node_modules')) continue;
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(pattern)) {
      const name = packageOf(match[1]);
      if (name !== undefined) found.add(name);
    }
  }
  return found;
}

/**
 * What is wrong with the dependencies of an unpacked package: an import it does not declare (a
 * user's install would miss it), and for a command, a dependency it never imports (dead weight in
 * every `npx`). A library may declare more: types and optional peers.
 */
function dependencyProblems(dir, packed, command) {
  const declared = new Set(
    [packed.dependencies, packed.peerDependencies, packed.optionalDependencies].flatMap((d) =>
      Object.keys(d ?? {}),
    ),
  );
  const imported = importedPackages(dir);
  const problems = [...imported]
    .filter((name) => name !== packed.name && !declared.has(name))
    .map((name) => `imports ${name}, which it does not declare`);
  if (command) {
    for (const name of Object.keys(packed.dependencies ?? {})) {
      if (!imported.has(name)) problems.push(`depends on ${name}, which its code never imports`);
    }
  }
  return problems;
}

/** Problems with a command's bin files in the tarball: each starts with a node shebang and is executable. */
function binProblems(unpacked, tarball, packed) {
  const bins = typeof packed.bin === 'string' ? { [packed.name]: packed.bin } : (packed.bin ?? {});
  const listing = run('tar', ['-tvzf', tarball]);
  const problems = [];
  for (const [name, file] of Object.entries(bins)) {
    const path = `package/${file.replace(/^\.\//, '')}`;
    if (!existsSync(join(unpacked, path))) {
      problems.push(`bin ${name}: ${path} is not in the tarball`);
      continue;
    }
    const firstLine = readFileSync(join(unpacked, path), 'utf8').split('\n', 1)[0];
    if (firstLine !== '#!/usr/bin/env node')
      problems.push(`bin ${name}: ${path} starts with ${JSON.stringify(firstLine)}, not the node shebang`);
    const mode =
      listing
        .split('\n')
        .find((line) => line.endsWith(` ${path}`))
        ?.split(/\s+/)[0] ?? '';
    if (!/^-rwx/.test(mode) || !(statSync(join(unpacked, path)).mode & 0o100)) {
      problems.push(`bin ${name}: ${path} is not executable in the tarball (${mode})`);
    }
  }
  return problems;
}

/** The spec every install of the command runs: two agents in a SequentialWorkflow. */
const COMMAND_SPEC = `name: Draft and edit
topology: SequentialWorkflow
agents:
  - name: writer
    instructions: You write a first draft.
  - name: editor
    instructions: You tighten the draft you are given.
task: Explain what a mutex is in two sentences.
`;
const MOCK_ANSWER = 'A mutex lets one thread at a time into a critical section.';

/**
 * The environment a command runs in: the Node under test first on the PATH (so `npm`, `npx` and the
 * bin's `#!/usr/bin/env node` all run on it), the tarball registry for the scope, and no model
 * configured unless `model` says which (keys and models of this shell never leak in).
 */
function commandEnv(node, registry, model = {}) {
  const env = { ...process.env, ...registry.env, OLLAMA_HOST: 'http://127.0.0.1:9', ...model };
  for (const key of Object.keys(env)) {
    if (/^(SWARM_MODEL|OPENAI_|ANTHROPIC_)/.test(key) && !(key in model)) delete env[key];
  }
  env.PATH = [dirname(node.binary), process.env.PATH].join(delimiter);
  return env;
}

/**
 * Installs a command the three ways users get it and runs each install on every Node: in a project
 * (`npm i`, then `npx <bin>`: version, help, a spec against a loopback mock provider, the demo with
 * no model at all), globally (`npm i -g`, then the bin as the shell finds it: version and the spec)
 * and `npx <name>` from an empty folder (the spec). The installs are made once, by npm on the
 * lowest Node: nothing in them depends on the Node (no install scripts, no native code), while
 * `npx`, npm and the bin's `#!/usr/bin/env node` run on the Node under test.
 */
async function checkCommand(command, packages, nodes) {
  const { name, version, bin } = command.packed;
  const binName = typeof bin === 'string' ? name.split('/').pop() : Object.keys(bin)[0];
  const testing = await import(
    pathToFileURL(createRequire(join(command.dir, 'package.json')).resolve('@swarm/core/testing')).href
  );
  const server = await testing.mockProviderServer({ handler: () => ({ text: MOCK_ANSWER }) });
  const registry = await tarballRegistry(
    packages.map((p) => ({ manifest: p.packed, tarball: p.tarball })),
    name.split('/')[0],
  );
  // npx keeps what it installed in the npm cache by package name, and every build here is the same
  // version: a cache of this check's own keeps an earlier build from answering.
  const npmCache = join(work, 'npm-cache');
  const npmFlags = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `--cache=${npmCache}`];
  const spec = join(work, 'spec.yaml');
  writeFileSync(spec, COMMAND_SPEC);
  const model = {
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'offline-mock-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };

  /** `argv` (one install of the command) with `args`, on `node`, in `cwd`; resolves to its stdout. */
  const swarm = (argv, args, cwd, node, env = commandEnv(node, registry)) =>
    runAsync(argv[0], [...argv.slice(1), ...args], { cwd, env });

  const checks = {
    version: async (label, argv, cwd, node) => {
      const said = (await swarm(argv, ['--version'], cwd, node)).trim();
      if (said !== version)
        throw new Error(`${label} --version printed ${JSON.stringify(said)}, not ${version}`);
    },
    help: async (label, argv, cwd, node) => {
      const help = await swarm(argv, ['--help'], cwd, node);
      if (!help.includes(`${binName} run <spec`))
        throw new Error(`${label} --help does not show the run command`);
    },
    'run spec.yaml': async (label, argv, cwd, node) => {
      const before = server.requests.length;
      const out = await swarm(
        argv,
        ['run', spec, '--json', '--quiet'],
        cwd,
        node,
        commandEnv(node, registry, model),
      );
      const ran = JSON.parse(out);
      const calls = server.requests.length - before;
      if (ran.output !== MOCK_ANSWER || calls !== 2 || ran.llmCalls !== 2) {
        throw new Error(
          `${label} run spec.yaml answered ${JSON.stringify(ran.output)} in ${ran.llmCalls} calls (the provider saw ${calls}); expected the editor's answer after 2`,
        );
      }
    },
    demo: async (label, argv, cwd, node) => {
      const reports = join(cwd, `reports-${node.version}`);
      const demo = await swarm(argv, ['demo', '--out', reports], cwd, node);
      if (
        !demo.includes('Tax Expert') ||
        readdirSync(reports).filter((f) => f.endsWith('.html')).length < 2
      ) {
        throw new Error(`${label} demo did not route offline and write its reports:\n${demo}`);
      }
    },
  };

  try {
    const [lowest] = nodes;
    step(`install ${name}: npm i in a project, npm i -g, npx ${name} (npm on Node ${lowest.version})`);
    const env = commandEnv(lowest, registry);
    const project = join(work, 'command-project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'swarm-command-user', private: true, type: 'module' }, null, 2)}\n`,
    );
    await runAsync('npm', ['install', ...npmFlags, name], { cwd: project, env });
    const prefix = join(work, 'command-global');
    await runAsync('npm', ['install', '--global', `--prefix=${prefix}`, ...npmFlags, command.tarball], {
      cwd: work,
      env,
    });
    const empty = join(work, 'command-npx');
    mkdirSync(empty);
    const installs = [
      {
        label: `npx ${binName}`,
        argv: ['npx', '--no', '--', binName],
        cwd: project,
        run: Object.keys(checks),
      },
      // The bin as the shell finds it: its shebang and executable bit, no node in front.
      {
        label: `npm i -g, ${binName}`,
        argv: [join(prefix, 'bin', binName)],
        cwd: prefix,
        run: ['version', 'run spec.yaml'],
      },
      {
        label: `npx ${name}`,
        argv: ['npx', '--yes', '--prefer-offline', `--cache=${npmCache}`, '--', name],
        cwd: empty,
        run: ['run spec.yaml'],
      },
    ];

    for (const node of nodes) {
      step(`${name} on Node ${node.version}`);
      for (const install of installs) {
        for (const check of install.run) await checks[check](install.label, install.argv, install.cwd, node);
        console.log(`[packed]   ${install.label}: ${install.run.join(', ')}`);
      }
    }
    const served = registry.requests.filter((r) => r.includes('/-/tarballs/')).length;
    if (served === 0) throw new Error('npm fetched no tarball from the loopback registry');
  } finally {
    await registry.close();
    await server.close();
  }
}

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
function checkConsumer({ name, packages, checked, zodVersion, typePackages, scenario, nodes }) {
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
  for (const { binary, version } of nodes) {
    step(`${name}: run on Node ${version}: import and require() of every entry point`);
    console.log(run(binary, ['dist/main.js'], { cwd: consumer }).trim());
    console.log(run(binary, ['check-require.cjs'], { cwd: consumer }).trim());
  }
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
  const libraries = packages.filter((p) => !p.command);
  const commands = packages.filter((p) => p.command);
  const workspaceFilters = packages.map((p) => `--filter=./${p.rel}`);

  step(`build ${packages.length} packages`);
  run('pnpm', ['exec', 'turbo', 'run', 'build', ...workspaceFilters, '--output-logs=errors-only']);

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
    pkg.packed = packed;
    const specs = Object.values({ ...packed.dependencies, ...packed.peerDependencies });
    const missing = ['LICENSE', 'README.md'].filter((f) => !existsSync(join(unpacked, 'package', f)));
    if (missing.length > 0) throw new Error(`${name}: the tarball lacks ${missing.join(', ')}`);
    if (specs.some((s) => /^(workspace|catalog):/.test(s))) {
      throw new Error(`${name}: the tarball kept a workspace/catalog specifier`);
    }
    if (!pkg.command && packed.dependencies?.zod) {
      throw new Error(`${name}: zod is a plain dependency of the tarball`);
    }
    const problems = [
      ...dependencyProblems(join(unpacked, 'package'), packed, pkg.command),
      ...(pkg.command ? binProblems(unpacked, pkg.tarball, packed) : []),
    ];
    if (problems.length > 0) throw new Error(`${name}:\n  ${problems.join('\n  ')}`);
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
    // A command has nothing to import, so no types to resolve.
    if (!pkg.command) run(bin('attw'), [pkg.tarball, '--profile', 'esm-only', '--format', 'table-flipped']);
  }

  const nodes = Object.keys(NODE_VERSIONS).map((major) => {
    const binary = ensureNode(major);
    return { binary, version: run(binary, ['--version']).trim() };
  });
  // Packages whose public types come from the AI SDK are checked in a consumer of their own: `ai`
  // needs zod ^4.1.8 and its declarations need Node's and json-schema's types (see AI_SDK_CONSUMER).
  const aiSdk = libraries.filter(usesAiSdk);
  const plain = libraries.filter((p) => !usesAiSdk(p));
  checkConsumer({
    name: 'consumer',
    packages: libraries,
    checked: plain,
    zodVersion: lowest(ZOD_PEER_RANGE),
    typePackages: [],
    scenario: SCENARIO,
    nodes,
  });
  if (aiSdk.length > 0) {
    const zodVersion = aiSdk
      .map((p) => lowest(p.manifest.peerDependencies?.zod ?? ZOD_PEER_RANGE))
      .reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
    checkConsumer({
      name: 'ai-sdk-consumer',
      packages: libraries,
      checked: aiSdk,
      zodVersion,
      typePackages: AI_SDK_CONSUMER.typePackages,
      scenario: AI_SDK_CONSUMER.scenario,
      nodes,
    });
  }

  for (const command of commands) {
    await checkCommand(command, packages, nodes);
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
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts', ...workspaceFilters], {
    cwd: copy,
  });
  const published = run('pnpm', ['-r', ...workspaceFilters, 'publish', '--dry-run', '--no-git-checks'], {
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
