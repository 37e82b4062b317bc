import { resolve } from 'node:path';
import { fileJournal, type Journal, memoryJournal } from '@swarm/core';
import type { AskApprovals } from './approval-prompt.js';
import { readAttachments, specAttachmentPaths } from './attachments.js';
import { CliError } from './cli-error.js';
import { executeRun } from './execute-run.js';
import { claimJournalDir, hasRun, newRunDirProblem, newRunId, runIdProblem } from './journal-dir.js';
import { loadSpec } from './load-spec.js';
import { type OutputFile, outputFileProblems } from './output-path.js';
import { shellWord } from './pause-notice.js';
import { writeRunRecord } from './run-record.js';
import { openStudio, type StudioDeps, serveStudio } from './studio-command.js';

/** Flags of `swarm run`. */
export interface RunFlags {
  task?: string;
  model?: string;
  json?: boolean;
  trace?: string;
  report?: string;
  quiet?: boolean;
  /** A directory to journal the run in (`fileJournal`), so that `swarm resume` can go on with it. */
  journal?: string;
  /** The run's id (its journal's name); generated when absent. */
  runId?: string;
  /** Files that go with the task (`--attach`, repeatable): images, PDFs, text. */
  attach?: string[];
  /** Folders outside the spec's own that its `attachments:` may read (`--allow-path`, repeatable). */
  allowPath?: string[];
  /**
   * Serves swarm studio on the journal folder while the run executes (`--studio`, needs `--journal`),
   * printing its address on stderr; approvals are then given on its page, not asked in the terminal.
   */
  studio?: boolean;
  /** Opens the studio's page in the browser (`--open`, with `--studio`). */
  open?: boolean;
}

/**
 * `swarm run <spec> [task]`: builds the spec's topology, runs the task, prints the answer, then
 * writes the trace and the report. Output paths, the journal directory and the run id are checked
 * before the first model call (and before anything is written), and the answer is printed before
 * any file is written, so a bad path never costs a run or its answer. With `--journal`, what the
 * run runs is recorded beside its journal before its first call. `ask` (a terminal) answers pauses
 * in this process; without it a pause prints what waits and how to resume.
 */
export async function runCommand(
  specPath: string,
  flags: RunFlags,
  out: NodeJS.WritableStream,
  ask?: AskApprovals,
  studioDeps?: StudioDeps,
): Promise<void> {
  const trace: OutputFile | undefined =
    flags.trace === undefined ? undefined : { option: '--trace', path: flags.trace };
  const report: OutputFile | undefined =
    flags.report === undefined ? undefined : { option: '--report', path: flags.report };
  // Every problem of the spec and the command line is reported at once, before any call is made.
  const attached = readAttachments(flags.attach ?? [], '--attach');
  const unwritable = [
    ...outputFileProblems([trace, report].filter((o) => o !== undefined)),
    ...journalProblems(flags.journal, flags.runId),
    ...attached.problems,
    ...(flags.studio && flags.journal === undefined
      ? ['--studio: give the run a journal folder to watch (--journal <dir>)']
      : []),
    ...(flags.open && !flags.studio ? ['--open: opens the studio of --studio; give --studio too'] : []),
  ];
  const { file, loaded, task, fallback } = await loadSpec(specPath, {
    task: flags.task,
    model: flags.model,
    requireTask: true,
    problems: unwritable,
  });

  // A spec's attachments: paths relative to the spec file, before those of the command line.
  // Confined to the spec's folder (and --allow-path ones): a shared spec cannot upload other files.
  const confined = specAttachmentPaths(
    specPath,
    (file.data as { attachments?: string[] }).attachments ?? [],
    flags.allowPath,
  );
  if (confined.problems.length > 0) throw new CliError(confined.problems.join('\n'), 2);
  const fromSpec = confined.paths;
  const specAttached = readAttachments(fromSpec, `${file.path}: attachments:`);
  if (specAttached.problems.length > 0) throw new CliError(specAttached.problems.join('\n'), 2);
  const attachmentPaths = [...fromSpec, ...(flags.attach ?? []).map((path) => resolve(path))];
  const attachments = [...specAttached.parts, ...attached.parts];

  const dir = flags.journal;
  const runId = flags.runId ?? newRunId(dir);
  let journal: Journal | undefined;
  if (dir !== undefined) {
    const unclaimed = claimJournalDir(dir);
    if (unclaimed) throw new CliError(unclaimed, 2);
    await writeRunRecord(dir, {
      swarmRun: 1,
      runId,
      specFile: resolve(specPath),
      spec: file.data as Record<string, unknown>,
      task,
      ...(attachmentPaths.length > 0 && { attachments: attachmentPaths }),
      ...(fallback && { model: fallback.model }),
      createdAt: new Date().toISOString(),
    });
    journal = fileJournal(dir);
    // Said before the first call: after a crash, this is how to go on without paying again.
    process.stderr.write(
      `run ${runId}, journaled in ${dir} (after a crash: swarm resume ${shellWord(dir)} ${runId})\n`,
    );
  } else if (ask) {
    // Answering in this process resumes the run: its finished calls must replay, not run again.
    journal = memoryJournal();
  }
  // Watched in the studio, a pause waits for a decision on its page (it resumes in this process).
  const studio = flags.studio && dir !== undefined ? await serveStudio([dir]) : undefined;
  if (studio) {
    process.stderr.write(`swarm studio: ${studio.url}\n`);
    if (flags.open) openStudio(studio, studioDeps);
  }
  const execution = executeRun(
    {
      topology: loaded.topology,
      task,
      ...(attachments.length > 0 && { attachments }),
      title: `${loaded.spec.name ?? loaded.descriptor.type} — swarm run`,
      runId,
      ...(journal && { journal }),
      ...(dir !== undefined && { journalDir: dir }),
      ...(ask && !studio && { ask }),
      ...(flags.json && { json: true }),
      ...(flags.quiet && { quiet: true }),
      ...(trace && { trace }),
      ...(report && { report }),
      ...(studio && { onEvent: studio.events({ journal: dir!, id: runId }) }),
    },
    out,
  );
  if (!studio) return execution;
  studio.track({ journal: dir!, id: runId }, execution);
  try {
    await execution;
  } finally {
    // The page stays: it shows how the run ended, and approves a pause (resumed in this process).
    process.stderr.write(
      `swarm studio: this run is over for now (the page says how it ended); the studio stays at ${studio.url} (Ctrl-C stops it)\n`,
    );
  }
}

// What is wrong with --journal and --run-id: a directory that is not ours, a run id that is not
// one, or names a run the directory already holds (that one is resumed, not run again).
function journalProblems(dir: string | undefined, runId: string | undefined): string[] {
  const dirProblem = dir === undefined ? undefined : newRunDirProblem(dir);
  const idProblem = runId === undefined ? undefined : runIdProblem(runId);
  const problems = [dirProblem, idProblem && `--run-id ${runId}: ${idProblem}`];
  if (dir !== undefined && runId !== undefined && !dirProblem && !idProblem && hasRun(dir, runId)) {
    problems.push(
      `--run-id ${runId}: ${dir} already holds run ${runId}; go on with it: swarm resume ${shellWord(dir)} ${runId}`,
    );
  }
  return problems.filter((p) => p !== undefined);
}
