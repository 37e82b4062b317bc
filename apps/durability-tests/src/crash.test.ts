import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileJournal, type JournalEntry } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, crashRun, requestKey, task } from './crash-run.ts';

// 30 kills at seeded points of a run (a three-step workflow with a hierarchy of two parallel
// workers nested in it, on a file journal), each followed by a rerun from the journal. A kill point
// is a model request of the run (seeded by the trial's number) and a phase: half the trials are
// killed the moment that request reaches the server (the call in flight, never answered), the other
// half a seeded 0-40 ms after it (while its answer travels, is journaled, or a tool runs). Counting
// requests rather than milliseconds puts every kill inside the run however busy the machine is.
// The trials go in three lanes at once, each with its own server (whose requests are its own).
const trials = 30;
const lanes = 3;
// The most calls in flight at once: the hierarchy's two workers.
const branches = 2;
const child = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

/** A lane's server; `onRequest` runs as each request arrives, before it is answered. */
interface Lane {
  server: MockProviderServer;
  onRequest: (() => Promise<void> | void) | undefined;
}

let lanesOf: Lane[];
let dir: string;
beforeAll(async () => {
  lanesOf = await Promise.all(
    Array.from({ length: lanes }, async () => {
      const lane: Lane = { server: undefined as unknown as MockProviderServer, onRequest: undefined };
      lane.server = await mockProviderServer({
        handler: async (request) => {
          await lane.onRequest?.();
          return answer(request);
        },
      });
      return lane;
    }),
  );
  dir = await mkdtemp(join(tmpdir(), 'swarm-crash-'));
});
afterAll(async () => {
  await Promise.all(lanesOf.map((lane) => lane.server.close()));
  await rm(dir, { recursive: true, force: true });
});

/** A seeded draw in [0, 1): the kill point of a trial is the same on every run of the test. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Outcome {
  killed: boolean;
  stdout: string;
}

/** A child that has loaded and waits for `go`; `go()` runs it to its end, `kill()` SIGKILLs it. */
interface ReadyChild {
  go(): Promise<Outcome>;
  /** Kills the child and resolves once it has exited. */
  kill(): Promise<void>;
}

function startChild(server: MockProviderServer, runId: string, sideEffects: string): Promise<ReadyChild> {
  return new Promise((ready, reject) => {
    const proc: ChildProcess = spawn(
      process.execPath,
      [child, server.openaiBaseURL, dir, runId, sideEffects],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let started = false;
    let exited!: (outcome: Outcome) => void;
    let failed!: (error: Error) => void;
    const exit = new Promise<Outcome>((resolve, fail) => {
      exited = resolve;
      failed = fail;
    });
    exit.catch(() => undefined);
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (stdout === 'ready\n') {
        ready({
          go: () => {
            started = true;
            proc.stdin!.end('go\n');
            return exit;
          },
          kill: async () => {
            proc.kill('SIGKILL');
            await exit.catch(() => undefined);
          },
        });
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      const error = new Error(`the child failed (${code ?? signal}):\n${stderr}`);
      if (!started) reject(error);
      else if (signal !== 'SIGKILL' && code !== 0) failed(error);
      else exited({ killed: signal === 'SIGKILL', stdout });
    });
  });
}

const count = (keys: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
};

// Under a minute on a shared two-core machine (31 child processes loaded, 30 resumes, each journal
// write flushed), a few minutes when it is far busier: the limit is for a stuck run, not a timing.
const timeoutMs = 300_000;

describe('a run on a file journal, killed with SIGKILL at random points', () => {
  it(
    `resumes to the same answer ${trials} times, repeating no finished call and no finished tool`,
    async () => {
      // The uninterrupted run, in a child as the trials run: its answer, its requests, its notes.
      const cleanEffects = join(dir, 'clean.notes');
      const first = lanesOf[0]!.server;
      const clean = await (await startChild(first, 'clean', cleanEffects)).go();
      const expected = JSON.parse(clean.stdout.split('\n')[1]!) as { output: string; llmCalls: number };
      const cleanKeys = first.requests.map(requestKey);
      const cleanNotes = (await readFile(cleanEffects, 'utf8')).split('\n').filter(Boolean);
      expect(new Set(cleanKeys).size).toBe(cleanKeys.length);
      expect(cleanKeys).toHaveLength(expected.llmCalls);
      expect(cleanNotes).toHaveLength(3);

      let killedMidRun = 0;
      let killedInFlight = 0;
      let cutTools = 0;
      const notesOf = (trial: number) => join(dir, `trial-${trial}.notes`);
      // One lane: its trials one after another, the next child loading while this one runs and is resumed.
      const lane = async (lane: Lane, mine: number[]) => {
        const { server } = lane;
        let next = startChild(server, `trial-${mine[0]}`, notesOf(mine[0]!));
        for (const [i, trial] of mine.entries()) {
          const runId = `trial-${trial}`;
          const notes = notesOf(trial);
          const loaded = await next;
          if (i + 1 < mine.length) next = startChild(server, `trial-${mine[i + 1]}`, notesOf(mine[i + 1]!));
          // The kill point: the request that triggers it, and when (in flight, or a while after).
          const random = mulberry32(26 + trial);
          const atRequest = 1 + Math.floor(random() * expected.llmCalls);
          const inFlight = trial % 2 === 0;
          const afterMs = random() * 40;
          let seen = 0;
          lane.onRequest = async () => {
            seen += 1;
            if (seen !== atRequest) return;
            if (inFlight) await loaded.kill();
            else setTimeout(() => void loaded.kill(), afterMs);
          };
          const start = server.requests.length;
          const killed = await loaded.go();
          lane.onRequest = undefined;
          const killedKeys = server.requests.slice(start).map(requestKey);
          const entries: readonly JournalEntry[] = await fileJournal(dir).read(runId);
          const journaledCalls = entries.filter((e) => e.type === 'model').length;
          const journaledTools = new Set(entries.flatMap((e) => (e.type === 'tool' ? [e.result] : [])));
          if (killed.killed && journaledCalls < expected.llmCalls) killedMidRun += 1;
          if (inFlight) {
            // Killed with request `atRequest` unanswered: that call cannot be in the journal.
            expect(killed.killed, `trial ${trial}`).toBe(true);
            expect(journaledCalls, `trial ${trial}`).toBeLessThan(atRequest);
            killedInFlight += 1;
          }

          const resumeStart = server.requests.length;
          const result = await crashRun(server.openaiBaseURL, notes).run(task, {
            journal: fileJournal(dir),
            runId,
          });
          const resumedKeys = server.requests.slice(resumeStart).map(requestKey);
          const where = `trial ${trial} (killed ${killed.killed ? `after ${journaledCalls} journaled calls` : 'never'})`;
          // A tool journaled as started and never finished was cut off by the kill: it is not run
          // again (at most once), and the model is told so, so the answer may differ from a clean
          // run's. Such a trial checks the at-most-once promise only.
          const finished = new Set(entries.flatMap((e) => (e.type === 'tool' ? [e.key] : [])));
          const cut = entries.filter((e) => e.type === 'started' && !finished.has(e.key)).length;
          if (cut > 0) {
            cutTools += 1;
            expect(result.output.trim(), where).not.toBe('');
            const written = count((await readFile(notes, 'utf8')).split('\n').filter(Boolean));
            expect(Math.max(0, ...written.values()), where).toBeLessThanOrEqual(1);
            continue;
          }

          expect(result.output, where).toBe(expected.output);
          expect(result.llmCalls, where).toBe(expected.llmCalls);
          // Every journaled answer is used; the rest went to the server.
          expect(result.replayedCalls, where).toBe(journaledCalls);
          expect(result.liveCalls, where).toBe(resumedKeys.length);
          // Together the two processes asked what one uninterrupted run asks, each request at most
          // twice: a request repeated was in flight at the kill (asked, never journaled), at most
          // one per concurrent branch.
          const both = count([...killedKeys, ...resumedKeys]);
          expect(new Set(both.keys()), where).toEqual(new Set(cleanKeys));
          const repeated = [...both].filter(([, n]) => n > 1);
          expect(Math.max(0, ...both.values()), where).toBeLessThanOrEqual(2);
          expect(repeated.length, where).toBeLessThanOrEqual(
            Math.min(branches, killedKeys.length - journaledCalls),
          );
          // A note written twice was a tool in flight at the kill (run, not journaled); every other
          // note was written once.
          const written = count((await readFile(notes, 'utf8')).split('\n').filter(Boolean));
          expect(new Set(written.keys()), where).toEqual(new Set(cleanNotes));
          const twice = [...written].filter(([, n]) => n > 1).map(([line]) => line);
          expect(Math.max(...written.values()), where).toBeLessThanOrEqual(2);
          expect(twice.length, where).toBeLessThanOrEqual(branches);
          for (const line of twice) expect(journaledTools.has(`noted: ${line}`), where).toBe(false);
        }
      };
      const all = Array.from({ length: trials }, (_, trial) => trial);
      await Promise.all(
        lanesOf.map((one, l) =>
          lane(
            one,
            all.filter((t) => t % lanes === l),
          ),
        ),
      );
      // Every in-flight kill landed inside the run (and the later ones mostly did too).
      expect(killedInFlight).toBe(trials / 2);
      expect(killedMidRun).toBeGreaterThanOrEqual(killedInFlight);
      // Most trials are checked in full: a kill inside a tool is the exception.
      expect(cutTools).toBeLessThan(trials / 2);
    },
    timeoutMs,
  );
});
