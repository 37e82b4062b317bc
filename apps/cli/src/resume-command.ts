import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import {
  type Approvals,
  ConfigError,
  type DecisionEntry,
  fileJournal,
  type JournalEntry,
  journaledDecisions,
  type Model,
  type PendingApproval,
  type SwarmEvent,
  waitingApprovals,
} from '@swarm/core';
import { type LoadedSwarm, loadSwarmSpec, SwarmSpecError } from '@swarm/router';
import type { AskApprovals } from './approval-prompt.js';
import { readAttachments } from './attachments.js';
import { CliError } from './cli-error.js';
import { executeRun } from './execute-run.js';
import { recordFile, resumeDirProblem, runIdProblem, runIds } from './journal-dir.js';
import { type OutputFile, outputFileProblems } from './output-path.js';
import { describePending } from './pause-notice.js';
import { topologies } from './registry.js';
import { readRunRecord } from './run-record.js';
import { builtinTools } from './tools.js';

/** Flags of `swarm resume`. */
export interface ResumeFlags {
  json?: boolean;
  trace?: string;
  report?: string;
  quiet?: boolean;
  /**
   * `id` or `id=note` of pending calls to approve; the note goes with the decision
   * (`ApprovalDecision.message`), as the reviewer wrote it.
   */
  approve?: string[];
  /** `id` or `id=reason` of pending calls to refuse; the reason is what the model reads. */
  reject?: string[];
  /** Who decides (journaled with each decision; default the user's login name). */
  by?: string;
}

/**
 * `swarm resume <dir> <run-id>`: runs a journaled run again from its record (same spec, task and
 * model), with decisions on the calls it waits for. Its finished calls replay from the journal; it
 * goes on live from there. A crashed run resumes the same way, with no decisions. The directory,
 * the run, its journal, the decisions and the output paths are all checked before anything runs
 * or is written; each problem is a line, exit 2.
 */
export async function resumeCommand(
  dir: string,
  runId: string,
  flags: ResumeFlags,
  out: NodeJS.WritableStream,
  ask?: AskApprovals,
  onEvent?: (event: SwarmEvent) => void,
): Promise<void> {
  const trace: OutputFile | undefined =
    flags.trace === undefined ? undefined : { option: '--trace', path: flags.trace };
  const report: OutputFile | undefined =
    flags.report === undefined ? undefined : { option: '--report', path: flags.report };
  const { approvals, problems } = parseDecisions(flags.approve ?? [], flags.reject ?? [], decider(flags.by));
  problems.push(...outputFileProblems([trace, report].filter((o) => o !== undefined)));
  const dirProblem = resumeDirProblem(dir);
  const idProblem = runIdProblem(runId);
  if (dirProblem || idProblem) {
    throw new CliError(
      [dirProblem, idProblem && `run id ${runId}: ${idProblem}`, ...problems].filter(Boolean).join('\n'),
      2,
    );
  }
  if (!existsSync(recordFile(dir, runId))) {
    const known = runIds(dir);
    throw new CliError(
      [
        `${dir} holds no run ${runId} (${known.length > 0 ? `its runs: ${known.join(', ')}` : 'it holds no run'})`,
        ...problems,
      ].join('\n'),
      2,
    );
  }
  const record = readRunRecord(dir, runId);
  const journal = fileJournal(dir);
  let entries: readonly JournalEntry[];
  try {
    entries = await journal.read(runId);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 2);
    throw error;
  }
  problems.push(...undecidable(approvals, waitingApprovals(entries), runId));
  const decided = journaledDecisions(entries);

  let loaded: LoadedSwarm | undefined;
  try {
    loaded = loadSwarmSpec(record.spec, {
      topologies,
      tools: builtinTools,
      defaultModel: record.model ?? noModel,
    });
  } catch (error) {
    if (!(error instanceof SwarmSpecError)) throw error;
    // The spec ran once: it no longer builds when the command's topologies or tools changed.
    problems.push(
      ...error.issues.map(
        (issue) =>
          `${recordFile(dir, runId)}: spec${issue.path ? `.${issue.path}` : ''}: ${issue.message.split('\n')[0]}`,
      ),
    );
  }
  // The same files as the first run: unchanged, their calls replay from the journal.
  const { parts: attachments, problems: unreadable } = readAttachments(
    record.attachments ?? [],
    `${recordFile(dir, runId)}: attachments:`,
  );
  problems.push(...unreadable);
  if (problems.length > 0 || !loaded) throw new CliError(problems.join('\n'), 2);
  // Who decided the calls decided before this resume: said first, the run's answer after it.
  if (decided.size > 0 && !flags.json && !flags.quiet) out.write(describeDecisions(entries, decided));

  await executeRun(
    {
      topology: loaded.topology,
      task: record.task,
      ...(attachments.length > 0 && { attachments }),
      title: `${loaded.spec.name ?? loaded.descriptor.type} — swarm resume`,
      runId,
      journal,
      journalDir: dir,
      ...(Object.keys(approvals).length > 0 && { approvals }),
      ...(ask && { ask }),
      ...(flags.json && { json: true }),
      ...(flags.quiet && { quiet: true }),
      ...(trace && { trace }),
      ...(report && { report }),
      ...(onEvent && { onEvent }),
    },
    out,
  );
}

// Who a decision given here is by: --by, else the login name (none when the system has no user).
function decider(by: string | undefined): string | undefined {
  if (by !== undefined && by.trim() !== '') return by.trim();
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** The journaled decisions of a run, one line each: `Decided: <id> tool {args} approved by ana at <time>`. */
export function describeDecisions(
  entries: readonly JournalEntry[],
  decided: ReadonlyMap<string, DecisionEntry>,
): string {
  const asked = new Map(
    entries.flatMap((entry) =>
      entry.type === 'approval' ? [[entry.approval.id, entry.approval] as const] : [],
    ),
  );
  const lines = [...decided.values()].map((d) => {
    const call = asked.get(d.id);
    const what = call ? ` ${call.agent} → ${call.tool} ${JSON.stringify(call.arguments)}` : '';
    const verdict = d.approved ? 'approved' : `rejected${d.message ? ` (${JSON.stringify(d.message)})` : ''}`;
    return `  ${d.id}${what}: ${verdict}${d.by ? ` by ${d.by}` : ''} at ${d.at}`;
  });
  return `Decided earlier in run:\n${lines.join('\n')}\n`;
}

/**
 * `--approve <id>[=note]` and `--reject <id>[=reason]` as core's approvals, one decision per call:
 * the text after the first `=` is the decision's `message`, `by` who decided. Exported for
 * `swarm studio`, which writes its decisions in the same words.
 */
export function parseDecisions(
  approve: string[],
  reject: string[],
  by?: string | undefined,
): { approvals: Approvals; problems: string[] } {
  const approvals: Approvals = {};
  const problems: string[] = [];
  const given = new Map<string, string>();
  const decide = (option: string, value: string, approved: boolean) => {
    const at = value.indexOf('=');
    const id = at < 0 ? value : value.slice(0, at);
    const message = at < 0 ? '' : value.slice(at + 1);
    if (id === '') {
      problems.push(`${option}: give the id of a call the run waits for`);
      return;
    }
    const earlier = given.get(id);
    if (earlier !== undefined && earlier !== option) {
      problems.push(`${earlier} ${id} and ${option} ${id}: one decision per call`);
      return;
    }
    given.set(id, option);
    approvals[id] = { approved, ...(message !== '' && { message }), ...(by !== undefined && { by }) };
  };
  for (const value of approve) decide('--approve', value, true);
  for (const value of reject) decide('--reject', value, false);
  return { approvals, problems };
}

/** Approvals as `swarm resume`'s `--approve` / `--reject` values (what {@link parseDecisions} reads back). */
export function decisionFlags(approvals: Approvals): { approve: string[]; reject: string[] } {
  const approve: string[] = [];
  const reject: string[] = [];
  for (const [id, d] of Object.entries(approvals)) {
    const value = d.message ? `${id}=${d.message}` : id;
    if (d.approved) approve.push(value);
    else reject.push(value);
  }
  return { approve, reject };
}

// A decision on a call the run does not wait for would be refused by the run: said here, first.
function undecidable(approvals: Approvals, waiting: readonly PendingApproval[], runId: string): string[] {
  const ids = new Set(waiting.map((p) => p.id));
  const list =
    waiting.length > 0
      ? `it waits for:\n${waiting.map((p) => `  ${describePending(p)}`).join('\n')}`
      : 'it waits for no approval';
  const unknown = Object.entries(approvals).filter(([id]) => !ids.has(id));
  return unknown.length === 0
    ? []
    : [
        ...unknown.map(
          ([id, d]) =>
            `${d.approved ? '--approve' : '--reject'} ${id}: run ${runId} does not wait for a call ${id}`,
        ),
        list,
      ];
}

// The spec of a record names its model or was recorded with one: this stands in only for a record
// of a spec whose agents all name theirs, so that it is never called.
const noModel: Model = {
  id: 'unconfigured',
  generate: () => Promise.reject(new ConfigError('the run record names no model for agents without one')),
};
