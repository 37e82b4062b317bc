#!/usr/bin/env node
// Runs every example offline on the given Node versions: no API key reaches it, so each one takes
// its scripted path (see examples/README.md). Entries are read from each example's `start` and
// `start:*` scripts (`tsx <file>`), so a new example is run the day it lands. Each entry runs as
// `<node> <repo>/node_modules/tsx/dist/cli.mjs <file>` in the example's folder and fails on a
// non-zero exit, on a timeout, or when its output lacks what it must show.
//
// Usage: node scripts/run-examples.mjs [--node 22|24|26 ...] [--timeout seconds] [example ...]
//        (default: Node 24, the development Node; every example)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureNode } from './node-versions.mjs';
import { root } from './package-metadata.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    node: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const majors = values.node ?? ['24'];
const timeoutMs = Number(values.timeout ?? 90) * 1000;
const concurrency = Number(values.concurrency ?? Math.min(2, availableParallelism()));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const examplesDir = join(root, 'examples');

/**
 * What an example needs beyond running with no key: lines `typed` at its prompt, a `provider` (a handler for a
 * loopback `mockProviderServer`, for an example that does nothing without a model), `expect`ed
 * output, or a `needs` check that says why it cannot run here.
 */
const SPECIAL = {
  // An interactive chat that needs a model: a loopback mock provider plays one, each line is typed
  // when the prompt shows (as a person would; stdin stays open until the last), and the answer must
  // come from billing after triage's typed handoff.
  'handoff-support': {
    typed: { prompt: 'you> ', lines: ['I was charged twice for invoice 42', 'exit'] },
    provider: supportDeskModel,
    expect:
      /↪ triage → billing[\s\S]*looks up invoice[\s\S]*billing> The duplicate charge on invoice 42 is refunded/,
  },
  // Servers that run until stopped: each must say where it serves, then answer its page there
  // (on the Node under test); it is stopped once it has.
  browser: { serves: /Open (http:\/\/127\.0\.0\.1:\d+)\/? / },
  'chat-ui': { serves: /Open (http:\/\/127\.0\.0\.1:\d+)\/? / },
  // Starts its own redis-server (and two worker processes on the same Node).
  queue: {
    needs: () => (commandExists('redis-server') ? undefined : 'redis-server is not on the PATH'),
  },
};

/** Whether a command is on the PATH. */
function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The support desk's model: triage hands to billing, billing looks the invoice up, then answers. */
function supportDeskModel(request) {
  const tools = (request.body.tools ?? []).map((t) => t.function?.name);
  const messages = request.body.messages ?? [];
  const called = (name) => messages.some((m) => m.tool_calls?.some((c) => c.function?.name === name));
  if (tools.includes('transfer_to_billing') && !called('transfer_to_billing')) {
    return {
      toolCalls: [{ name: 'transfer_to_billing', arguments: { invoice_id: '42', reason: 'Charged twice.' } }],
    };
  }
  if (tools.includes('lookup_invoice') && !called('lookup_invoice')) {
    return { toolCalls: [{ name: 'lookup_invoice', arguments: { invoice_id: '42' } }] };
  }
  return { text: 'The duplicate charge on invoice 42 is refunded.' };
}

/** The files an example's `start` and `start:*` scripts run with tsx, in script order, each once. */
function entries(name, manifest) {
  const files = [];
  for (const [script, command] of Object.entries(manifest.scripts ?? {})) {
    if (script !== 'start' && !script.startsWith('start:')) continue;
    for (const part of command.split('&&').map((p) => p.trim())) {
      const match = /^tsx (\S+)$/.exec(part);
      if (!match) throw new Error(`examples/${name}: "${script}" runs "${part}", not "tsx <file>"`);
      if (!files.includes(match[1])) files.push(match[1]);
    }
  }
  if (files.length === 0) throw new Error(`examples/${name}/package.json has no "start" script`);
  return files;
}

/** The environment of an example: no key, no model, no Ollama; nothing that would go online. */
function offlineEnv(nodeBinary) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(SWARM_MODEL|OPENAI_|ANTHROPIC_)|_MODEL_CONFIG$/.test(key)) delete env[key];
  }
  // The Node under test first, so what an example spawns by name (`node`) is the same Node.
  env.PATH = [dirname(nodeBinary), env.PATH].join(delimiter);
  env.OLLAMA_HOST = 'http://127.0.0.1:9';
  env.NO_COLOR = '1';
  return env;
}

/**
 * Runs one entry; resolves to `{ ok, seconds, output, why }`. With `serves` (a pattern whose first
 * group is the URL the entry prints once it listens), the entry is a server: it passes once a GET
 * of that URL answers 200 with a page, and is then stopped.
 */
function runEntry(nodeBinary, cwd, file, env, typed, serves) {
  const started = Date.now();
  return new Promise((resolve) => {
    // A process group of its own: tsx runs the example in a child process, and an example may start
    // more (the queue's workers and redis-server), so a timeout ends the whole group.
    const child = spawn(nodeBinary, [tsx, file], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    let sent = 0;
    // For a server: undefined until its URL shows, then the GET's outcome.
    let served;
    const visit = async (url) => {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
        const page = await response.text();
        served =
          response.ok && /<html/i.test(page)
            ? { ok: true }
            : { ok: false, why: `GET ${url} answered ${response.status} without a page` };
      } catch (error) {
        served = { ok: false, why: `GET ${url} failed: ${error.message}` };
      }
      process.kill(-child.pid, 'SIGKILL');
    };
    child.stdout.on('data', (d) => {
      output += d;
      const url = serves && served === undefined ? serves.exec(output)?.[1] : undefined;
      if (url) {
        served = { pending: true };
        void visit(url);
      }
      // One line per prompt shown; stdin ends after the last, or at once when nothing is typed.
      const prompts = typed ? output.split(typed.prompt).length - 1 : 0;
      while (typed && sent < Math.min(prompts, typed.lines.length)) {
        child.stdin.write(`${typed.lines[sent++]}\n`);
        if (sent === typed.lines.length) child.stdin.end();
      }
    });
    child.stderr.on('data', (d) => (output += d));
    // An example that exits before reading all it is typed closes the pipe; its exit code tells.
    child.stdin.on('error', () => {});
    if (!typed) child.stdin.end();
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, seconds: (Date.now() - started) / 1000, output, why: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      if (served && !served.pending) {
        resolve({ ok: served.ok, seconds, output, ...(served.why && { why: served.why }) });
      } else if (timedOut) {
        resolve({ ok: false, seconds, output, why: `timed out after ${timeoutMs / 1000}s` });
      } else if (code !== 0) {
        resolve({ ok: false, seconds, output, why: `exited with ${code ?? signal}` });
      } else resolve({ ok: true, seconds, output });
    });
  });
}

/** Runs `jobs` (functions returning promises) with at most `limit` at once, in order of start. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  return results;
}

const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(examplesDir, d.name, 'package.json')))
  .map((d) => ({
    name: d.name,
    dir: join(examplesDir, d.name),
    manifest: JSON.parse(readFileSync(join(examplesDir, d.name, 'package.json'), 'utf8')),
  }))
  .filter((e) => positionals.length === 0 || positionals.includes(e.name))
  .sort((a, b) => a.name.localeCompare(b.name));
const unknown = positionals.filter((p) => !examples.some((e) => e.name === p));
if (unknown.length > 0) {
  console.error(`[examples] no example ${unknown.join(', ')}`);
  process.exit(2);
}

let failed = 0;
try {
  const nodes = majors.map((major) => ({ major, binary: ensureNode(major) }));

  const build = spawnSync(
    'pnpm',
    [
      'exec',
      'turbo',
      'run',
      'build',
      ...examples.map((e) => `--filter=${e.manifest.name}^...`),
      '--output-logs=errors-only',
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}`);
    throw new Error('building the packages the examples use failed');
  }

  // The mock provider comes from the built @swarm/core the examples use, through its exports map.
  const needsProvider = examples.some((e) => SPECIAL[e.name]?.provider);
  const testing = needsProvider
    ? await import(
        pathToFileURL(
          createRequire(join(examplesDir, 'handoff-support', 'package.json')).resolve('@swarm/core/testing'),
        ).href
      )
    : undefined;

  for (const { binary } of nodes) {
    const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const jobs = examples.flatMap((example) => {
      const special = SPECIAL[example.name] ?? {};
      const why = special.needs?.();
      if (why) {
        return [
          async () => {
            console.log(`[examples] node ${version}  ${example.name}  skipped: ${why}`);
            return { ok: true, skipped: true };
          },
        ];
      }
      return entries(example.name, example.manifest).map((file) => async () => {
        const label = `${example.name}${file === 'src/main.ts' ? '' : ` ${file}`}`;
        const env = offlineEnv(binary);
        const server = special.provider
          ? await testing.mockProviderServer({ handler: special.provider })
          : undefined;
        if (server) {
          Object.assign(env, {
            SWARM_MODEL: 'openai:mock-model',
            OPENAI_API_KEY: 'offline-mock-key',
            OPENAI_BASE_URL: server.openaiBaseURL,
          });
        }
        try {
          const result = await runEntry(binary, example.dir, file, env, special.typed, special.serves);
          if (result.ok && special.expect && !special.expect.test(result.output)) {
            Object.assign(result, { ok: false, why: `its output does not match ${special.expect}` });
          }
          const status = result.ok ? 'ok' : `FAILED: ${result.why}`;
          console.log(`[examples] node ${version}  ${label}  ${status}  ${result.seconds.toFixed(1)}s`);
          if (!result.ok) {
            process.stdout.write(`${result.output.replace(/^/gm, '    | ')}\n`);
          }
          return result;
        } finally {
          await server?.close();
        }
      });
    });
    const started = Date.now();
    const results = await pool(jobs, concurrency);
    const bad = results.filter((r) => !r.ok).length;
    const skipped = results.filter((r) => r.skipped).length;
    failed += bad;
    console.log(
      `[examples] node ${version}: ${results.length - bad - skipped} of ${results.length} ok${skipped ? `, ${skipped} skipped` : ''} in ${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
  }
} catch (error) {
  console.error(`[examples] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
if (failed > 0) {
  console.error(`[examples] ${failed} failed`);
  process.exitCode = 1;
}
