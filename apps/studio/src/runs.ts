import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileJournal, type JournalEntry, type PendingApproval, waitingApprovals } from '@swarm/core';

/** A run's state as the studio sees it from its journal folder. */
export type RunState = 'running' | 'paused' | 'done' | 'failed';

/** One run of a journal folder, as `GET /api/runs` lists it. */
export interface RunSummary {
  id: string;
  /** The journal folder holding it. */
  journal: string;
  topology: string;
  task: string;
  state: RunState;
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
  entries: readonly JournalEntry[];
  pending: PendingApproval[];
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
 * Reads one run of `dir`. `active` are the runs the studio's own process is running now: a run
 * records no end in its journal, so any other run that waits for no approval counts as done.
 */
export async function readRun(dir: string, id: string, active: ReadonlySet<string>): Promise<RunDetail> {
  let record: RecordFile = {};
  let time = '';
  try {
    record = JSON.parse(readFileSync(join(dir, `${id}${recordSuffix}`), 'utf8')) as RecordFile;
    time = record.createdAt ?? statSync(join(dir, `${id}${recordSuffix}`)).mtime.toISOString();
  } catch {
    // A run with no readable record still lists, by its journal alone.
  }
  let entries: readonly JournalEntry[] = [];
  let failed = false;
  try {
    entries = await fileJournal(dir).read(id);
  } catch {
    failed = true;
  }
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
  const state: RunState = active.has(`${dir}\u0000${id}`)
    ? 'running'
    : failed
      ? 'failed'
      : pending.length > 0
        ? 'paused'
        : 'done';
  return {
    id,
    journal: dir,
    topology,
    task: record.task ?? '',
    state,
    calls,
    tokens,
    time,
    session: typeof spec.name === 'string' ? spec.name : topology,
    entries,
    pending,
  };
}

/** Every run of the journal folders, newest first. */
export async function listRuns(dirs: readonly string[], active: ReadonlySet<string>): Promise<RunSummary[]> {
  const runs: RunSummary[] = [];
  for (const dir of dirs) {
    for (const id of runIdsOf(dir)) {
      const { entries: _entries, pending: _pending, ...summary } = await readRun(dir, id, active);
      runs.push(summary);
    }
  }
  return runs.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : b.id.localeCompare(a.id)));
}
