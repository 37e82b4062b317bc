import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type PendingApproval, waitingApprovals } from '@swarm/core';
import type { StudioEntry, Tails } from './tail.js';

/**
 * A run's state as the studio sees it (see {@link runState} for the rule): `running`, `paused` (it
 * waits for approvals), `done` (its final answer is journaled), `failed` (its journal does not read,
 * or the studio's own attempt at it failed), `stopped` (none of those: cut by a crash or a stop, or
 * in another process that has not written for a while).
 */
export type RunState = 'running' | 'paused' | 'done' | 'failed' | 'stopped';

/** One run of a journal folder, as `GET /api/runs` lists it. */
export interface RunSummary {
  id: string;
  /** The journal folder holding it. */
  journal: string;
  topology: string;
  task: string;
  state: RunState;
  /** Why the run is in that state, in words (shown beside it). */
  stateReason: string;
  /** Model calls journaled so far. */
  calls: number;
  /** Total tokens of those calls. */
  tokens: number;
  /** When the run started (its record's `createdAt`), ISO 8601. */
  time: string;
  /** The session it belongs to (the spec's name, else its topology): the list groups by it. */
  session: string;
}

/** A run with its journal entries and the approvals it waits for (`GET /api/runs/:id`). */
export interface RunDetail extends RunSummary {
  entries: readonly StudioEntry[];
  pending: PendingApproval[];
}

/** What the studio's own process knows of the runs it runs (resumes, forks, `swarm run --studio`). */
export interface RunActivity {
  /** Runs being executed by this process now, by `<dir>\0<id>`. */
  active: ReadonlySet<string>;
  /**
   * The error of this process's last attempt at a run, when that attempt failed, and when it failed
   * (ms since the epoch), by `<dir>\0<id>`. A journal written after it (another process went on with
   * the run) outdates it.
   */
  failures: ReadonlyMap<string, { reason: string; at: number }>;
  /** A run whose journal changed less than this long ago (ms) counts as running in another process. */
  liveWindowMs: number;
  /** The clock (ms since the epoch); tests set it. */
  now: () => number;
}

interface RecordFile {
  runId?: string;
  spec?: Record<string, unknown>;
  task?: string;
  createdAt?: string;
}

const recordSuffix = '.run.json';

/** The ids of the runs whose record `dir` holds (`<id>.run.json`, written by `swarm run --journal`). */
export function runIdsOf(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(recordSuffix))
      .map((name) => name.slice(0, -recordSuffix.length));
  } catch {
    return [];
  }
}

/**
 * A run's state from its journal and what this process knows of it. The journal records no end of
 * a run, so the state is derived, first rule that holds:
 * 1. `running`: this process is executing it (a resume or fork the studio started, `swarm run --studio`);
 * 2. `failed`: its journal does not read, or this process's last attempt at it failed (and nothing
 *    wrote its journal since);
 * 3. `paused`: a call waits for approval (asked and not answered);
 * 4. `done`: its last entry is a final answer — an answer with no tool call, or a tool that ended the
 *    run, of the outermost run;
 * 5. `running`: its journal (or, before its first call, its record) changed less than
 *    `liveWindowMs` ago: another process writes it;
 * 6. `stopped`: otherwise (a crash, a stop, or a process gone quiet): `swarm resume` goes on with it.
 */
export function runState(
  key: string,
  entries: readonly StudioEntry[],
  pending: readonly PendingApproval[],
  journal: {
    /** Why the journal does not read, if it does not. */
    error: string | undefined;
    /** When the run's files last changed (ms since the epoch); 0 for none. */
    mtimeMs: number;
  },
  activity: RunActivity,
): { state: RunState; stateReason: string } {
  if (activity.active.has(key)) return { state: 'running', stateReason: 'running in this studio' };
  if (journal.error !== undefined) return { state: 'failed', stateReason: journal.error };
  const failure = activity.failures.get(key);
  if (failure !== undefined && journal.mtimeMs <= failure.at)
    return { state: 'failed', stateReason: failure.reason };
  if (pending.length > 0) {
    return { state: 'paused', stateReason: `waits for approval of ${pending.length} call(s)` };
  }
  if (finalAnswer(entries)) return { state: 'done', stateReason: 'its final answer is journaled' };
  const age = activity.now() - journal.mtimeMs;
  if (journal.mtimeMs > 0 && age < activity.liveWindowMs) {
    return { state: 'running', stateReason: 'its journal is being written (another process)' };
  }
  return {
    state: 'stopped',
    stateReason:
      entries.length === 0
        ? 'no call journaled, and nothing runs it'
        : 'stopped before its final answer (a crash or a stop); swarm resume goes on with it',
  };
}

// The last answer of the outermost run, with nothing asked after it: the run's final answer.
function finalAnswer(entries: readonly StudioEntry[]): boolean {
  // Model answers and tool results only: approvals, decisions and tool starts answer nothing.
  const answers = entries.filter(
    (e): e is Extract<StudioEntry, { type: 'model' | 'tool' }> => e.type === 'model' || e.type === 'tool',
  );
  const last = answers.at(-1);
  if (!last) return false;
  const top = Math.min(...answers.map((e) => e.path.length));
  if (last.path.length !== top) return false;
  if (last.type === 'tool') return last.ended === true;
  return (
    last.type === 'model' && last.response.toolCalls.length === 0 && last.response.finishReason !== 'error'
  );
}

/** Reads one run of `dir` (only what its journal file gained since the last read). */
export async function readRun(
  dir: string,
  id: string,
  tails: Tails,
  activity: RunActivity,
): Promise<RunDetail> {
  let record: RecordFile = {};
  let time = '';
  // The record is written before the run's first call: until its journal is, the record says when.
  let recordMtimeMs = 0;
  try {
    const file = join(dir, `${id}${recordSuffix}`);
    recordMtimeMs = statSync(file).mtimeMs;
    record = JSON.parse(readFileSync(file, 'utf8')) as RecordFile;
    time = record.createdAt ?? new Date(recordMtimeMs).toISOString();
  } catch {
    // A run with no readable record still lists, by its journal alone.
  }
  const tail = tails.of(dir, id);
  let readError: string | undefined;
  try {
    await tail.read();
  } catch (error) {
    readError = `cannot read ${tail.file}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const entries = tail.entries;
  const pending = waitingApprovals(entries);
  const spec = record.spec ?? {};
  const topology = String(spec.topology ?? spec.type ?? 'unknown');
  let calls = 0;
  let tokens = 0;
  for (const entry of entries) {
    if (entry.type !== 'model') continue;
    calls += 1;
    tokens += entry.response.usage.totalTokens;
  }
  const { state, stateReason } = runState(
    `${dir}\u0000${id}`,
    entries,
    pending,
    { error: readError ?? tail.error, mtimeMs: Math.max(tail.mtimeMs, recordMtimeMs) },
    activity,
  );
  return {
    id,
    journal: dir,
    topology,
    task: record.task ?? '',
    state,
    stateReason,
    calls,
    tokens,
    time,
    session: typeof spec.name === 'string' ? spec.name : topology,
    entries,
    pending,
  };
}

/** Every run of the journal folders, newest first. */
export async function listRuns(
  dirs: readonly string[],
  tails: Tails,
  activity: RunActivity,
): Promise<RunSummary[]> {
  const runs: RunSummary[] = [];
  for (const dir of dirs) {
    for (const id of runIdsOf(dir)) {
      const { entries: _entries, pending: _pending, ...summary } = await readRun(dir, id, tails, activity);
      runs.push(summary);
    }
  }
  return runs.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : b.id.localeCompare(a.id)));
}
