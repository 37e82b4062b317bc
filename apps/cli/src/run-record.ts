import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '@swarm/core';
import { z } from 'zod';
import { CliError } from './cli-error.js';
import { recordFile } from './journal-dir.js';

/**
 * What a journaled run ran, kept beside its journal (`<dir>/<runId>.run.json`) before its first
 * call: `swarm resume` rebuilds the same swarm from it alone, whatever happened to the spec file,
 * the command line or the environment's default model since.
 */
export interface RunRecord {
  swarmRun: 1;
  runId: string;
  /** The spec file it was read from (shown, never read again). */
  specFile: string;
  /** The spec itself, as parsed from that file. */
  spec: Record<string, unknown>;
  task: string;
  /** The files attached to the task (absolute paths), read again on resume. */
  attachments?: string[];
  /** The model of agents whose spec names none, as resolved when the run started. */
  model?: string;
  createdAt: string;
}

const recordSchema = z
  .object({
    swarmRun: z.literal(1),
    runId: z.string(),
    specFile: z.string(),
    spec: z.record(z.string(), z.unknown()),
    task: z.string().min(1),
    attachments: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).optional(),
    createdAt: z.iso.datetime(),
  })
  .strict();

/** Writes the record of a run, whole or not at all (a crash leaves the old file or none). */
export function writeRunRecord(dir: string, record: RunRecord): Promise<void> {
  return writeFileAtomic(recordFile(dir, record.runId), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Reads and checks the record of run `runId` in `dir`. Anything that is not a record swarm wrote
 * for that run is a CliError (exit 2) naming the file and the field.
 */
export function readRunRecord(dir: string, runId: string): RunRecord {
  const file = recordFile(dir, runId);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read the run record (${(error as NodeJS.ErrnoException).code})`, 2);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError(`${file}: not a swarm run record (not JSON)`, 2);
  }
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new CliError(`${file}: not a swarm run record (${at}${issue.message})`, 2);
  }
  if (parsed.data.runId !== runId) {
    throw new CliError(
      `${file}: holds run ${JSON.stringify(parsed.data.runId)}, not ${JSON.stringify(runId)}`,
      2,
    );
  }
  return parsed.data as RunRecord;
}
