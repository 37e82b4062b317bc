// Crash trials (issue 35): journaled runs in a child process, SIGKILLed at random points over and
// over, each resumed by the next process, against a model whose answers differ between identical
// requests. Across all the processes: no tool executed twice, no journaled call asked again, and
// every run ends with the answer its journal holds.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileJournal } from './kernel/file-journal.js';

const source = fileURLToPath(new URL('./test-fixtures/journal-child.ts', import.meta.url));
const dirs: string[] = [];
// The child, bundled once from the sources into one file: fifty processes start in a few seconds
// (through a transpiler each would take a second or more on a busy machine).
let fixture: string;
beforeAll(async () => {
  const out = await mkdtemp(join(tmpdir(), 'swarm-crash-child-'));
  dirs.push(out);
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: source,
      outDir: out,
      emptyOutDir: true,
      minify: false,
      target: 'node22',
      rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } },
    },
    ssr: { noExternal: true },
  });
  fixture = join(out, 'child.mjs');
}, 60_000);
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  output: () => string;
}

function start(dir: string, runs: number): Started {
  const child = spawn(process.execPath, [fixture, 'trials', dir, String(runs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    exited.then(() =>
      out.includes('ready') ? resolve() : reject(new Error(`child ended before ready:\n${out}`)),
    );
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return { child, ready, exited, output: () => out };
}

const lines = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('crash trials on a file journal', () => {
  it('SIGKILLed at 50+ random points, no tool runs twice and no journaled call is asked again', async () => {
    const kills = 50;
    const runsPerBatch = 30;
    let killed = 0;
    const batches: string[] = [];
    while (killed < kills) {
      const dir = await mkdtemp(join(tmpdir(), 'swarm-crash-'));
      dirs.push(dir);
      batches.push(dir);
      await mkdir(join(dir, 'journal'));
      // Processes one after another on the batch's runs, each killed a random while after it is
      // ready, until one gets to the end.
      for (;;) {
        const process = start(dir, runsPerBatch);
        await process.ready;
        const end = await Promise.race([process.exited.then(() => 'ended'), sleep(Math.random() * 120)]);
        if (end === 'ended') {
          expect(await process.exited, process.output()).toBe(0);
          break;
        }
        process.child.kill('SIGKILL');
        await process.exited;
        killed += 1;
        if (killed >= kills) {
          // Let the last one finish the batch.
          const last = start(dir, runsPerBatch);
          expect(await last.exited, last.output()).toBe(0);
          break;
        }
      }
    }
    expect(killed).toBeGreaterThanOrEqual(kills);

    let journaledCalls = 0;
    let requests = 0;
    for (const dir of batches) {
      const journal = fileJournal(join(dir, 'journal'));
      const asked = await lines(join(dir, 'requests.log'));
      const executed = await lines(join(dir, 'tools.log'));
      const done = await lines(join(dir, 'done.log'));
      requests += asked.length;
      for (let i = 0; i < runsPerBatch; i++) {
        const runId = `trial-${i}`;
        const entries = await journal.read(runId);
        // No tool executed twice: each step of a run ran at most once, across every process.
        const steps = executed.filter((e) => e.runId === runId).map((e) => e.n);
        expect(new Set(steps).size, `${runId} in ${dir}: ${JSON.stringify(steps)}`).toBe(steps.length);
        // Every execution was of a call the journal holds (the answer it acted on was kept first).
        const models = entries.filter((e) => e.type === 'model');
        journaledCalls += models.length;
        const nonces = models.map((e) =>
          e.type === 'model'
            ? (e.response.toolCalls[0]?.arguments.nonce ?? e.response.text.split(' ')[1])
            : '',
        );
        for (const run of executed.filter((e) => e.runId === runId)) expect(nonces).toContain(run.nonce);
        // No journaled call asked again: after the request whose answer was journaled, no request
        // for the same step of the run follows.
        const ofRun = asked.filter((r) => r.runId === runId);
        for (const nonce of nonces) {
          const at = ofRun.findIndex((r) => r.nonce === nonce);
          expect(at, `${runId}: journaled answer ${nonce} was never asked`).toBeGreaterThanOrEqual(0);
          const again = ofRun.slice(at + 1).filter((r) => r.done === ofRun[at]!.done);
          expect(again, `${runId}: step ${ofRun[at]!.done} asked again after it was journaled`).toEqual([]);
        }
        // The run ended with the answer its journal holds, as often as it was finished.
        const last = models.at(-1);
        const outputs = new Set(done.filter((d) => d.runId === runId).map((d) => d.output));
        expect(last?.type === 'model' && [...outputs]).toEqual([
          last?.type === 'model' ? last.response.text : '',
        ]);
      }
    }
    // Every provider request beyond the journaled ones was in flight when a process was killed.
    expect(requests - journaledCalls).toBeLessThanOrEqual(killed);
  }, 120_000);
});
