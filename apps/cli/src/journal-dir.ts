import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, validateRunId } from '@swarm/core';

/**
 * The file that makes a directory swarm's journal directory. Without it, `swarm run --journal`
 * writes only into a new or empty directory, and `swarm resume` refuses the directory: a typo never
 * scatters journals among someone's files, and a resume never reads files swarm did not write.
 */
export const markerFile = '.swarm-journal';
const markerText = `${JSON.stringify({ swarmJournalDir: 1 })}\n`;

/** The journal of a run in its directory (what `fileJournal(dir)` writes). */
export const journalFile = (dir: string, runId: string) => join(dir, `${runId}.jsonl`);
/** The record of what a run ran (spec, task, model), written before its first call. */
export const recordFile = (dir: string, runId: string) => join(dir, `${runId}.run.json`);

/**
 * Why `dir` cannot take a new run's journal (`swarm run --journal`), or undefined: it is a journal
 * directory of ours, an empty directory, or nothing yet (it is made when the run starts).
 */
export function newRunDirProblem(dir: string): string | undefined {
  const kind = kindOf(dir);
  if (kind === 'missing' || kind === 'ours' || kind === 'empty') return undefined;
  return `--journal ${dir}: ${kindProblem(kind)}`;
}

/** Why `dir` is not a journal directory a run can be resumed from, or undefined when it is one. */
export function resumeDirProblem(dir: string): string | undefined {
  const kind = kindOf(dir);
  if (kind === 'ours') return undefined;
  if (kind === 'missing')
    return `${dir}: no such directory (swarm resume takes the --journal directory of a swarm run)`;
  if (kind === 'empty') return `${dir}: not a swarm journal directory (it is empty)`;
  if (kind === 'foreign') return `${dir}: not a swarm journal directory (it has no ${markerFile})`;
  return `${dir}: ${kindProblem(kind)}`;
}

type DirKind = 'missing' | 'ours' | 'empty' | 'file' | 'foreign' | 'bad-marker' | { unreadable: string };

function kindOf(dir: string): DirKind {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) return 'file';
    entries = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') return 'file';
    return { unreadable: code ?? String(error) };
  }
  if (entries.includes(markerFile)) {
    let text: string;
    try {
      text = readFileSync(join(dir, markerFile), 'utf8');
    } catch (error) {
      return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
    }
    return text === markerText ? 'ours' : 'bad-marker';
  }
  return entries.length === 0 ? 'empty' : 'foreign';
}

function kindProblem(kind: Exclude<DirKind, 'missing' | 'ours' | 'empty'>): string {
  if (kind === 'file') return 'is a file, not a directory';
  if (kind === 'bad-marker')
    return `not a swarm journal directory (its ${markerFile} was not written by swarm)`;
  if (kind === 'foreign') {
    return `not a swarm journal directory (it holds other files and no ${markerFile}); give a new or empty directory`;
  }
  return `cannot read the directory (${kind.unreadable})`;
}

/** Why `runId` cannot name a run (path characters, length), or undefined. */
export function runIdProblem(runId: string): string | undefined {
  try {
    validateRunId(runId);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message.replace(/^runId/, 'a run id');
    throw error;
  }
}

/** Whether `dir` already holds run `runId` (its record or its journal). */
export function hasRun(dir: string, runId: string): boolean {
  return existsSync(recordFile(dir, runId)) || existsSync(journalFile(dir, runId));
}

/** A new run id no run in `dir` has: the time it started, to sort by, and six random hex digits. */
export function newRunId(dir: string | undefined, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  for (;;) {
    const runId = `${stamp}-${randomBytes(3).toString('hex')}`;
    if (dir === undefined || !hasRun(dir, runId)) return runId;
  }
}

/** The run ids whose records `dir` holds, sorted (oldest first, for generated ids). */
export function runIds(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.run.json'))
    .map((name) => name.slice(0, -'.run.json'.length))
    .sort();
}

/** Makes `dir` (and its parents) a journal directory of ours; the problem when it cannot. */
export function claimJournalDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, markerFile))) writeFileSync(join(dir, markerFile), markerText, { flag: 'wx' });
    return undefined;
  } catch (error) {
    return `--journal ${dir}: cannot make it a journal directory (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}
