import {
  type Approvals,
  type ContentPart,
  errorMessage,
  isPause,
  type Journal,
  type RunOptions,
  SwarmError,
  type SwarmEvent,
  type Topology,
  type TopologyResult,
} from '@swarm/core';
import type { AskApprovals } from './approval-prompt.js';
import { CliError } from './cli-error.js';
import { toJson } from './json-output.js';
import { type OutputFile, writeOutput } from './output-path.js';
import { pauseNotice, resumeCommandLine } from './pause-notice.js';
import { progress } from './progress.js';
import { htmlReport } from './report/html-report.js';

/** A swarm ready to run, and where its outcome goes: what `swarm run` and `swarm resume` share. */
export interface Execution {
  topology: Topology;
  task: string;
  /** Images and files that go with the task (`--attach`, a spec's `attachments:`). */
  attachments?: ContentPart[];
  /** The report's title. */
  title: string;
  runId: string;
  journal?: Journal;
  /** The journal's directory, for the resume command a pause prints. */
  journalDir?: string;
  /** Decisions for the calls the journaled run waits for (`swarm resume --approve/--reject`). */
  approvals?: Approvals;
  /** Asks a person when the run pauses (a terminal), then resumes in this process; needs `journal`. */
  ask?: AskApprovals;
  json?: boolean;
  quiet?: boolean;
  trace?: OutputFile;
  report?: OutputFile;
  /** Also given every event of the run, as it happens (swarm studio draws the run from them). */
  onEvent?: (event: SwarmEvent) => void;
}

/**
 * Runs the swarm and prints its answer (or, when it pauses, what it waits for), then writes the
 * trace and the report. A pause with someone to ask is answered and resumed here, until the run
 * ends or they stop answering; the trace and report are then those of the last attempt, which
 * replays the earlier ones' calls (marked replayed). A pause is not a failure: it exits 0.
 */
export async function executeRun(run: Execution, out: NodeJS.WritableStream): Promise<void> {
  let approvals = run.approvals;
  let events: SwarmEvent[];
  let result: TopologyResult | undefined;
  let failure: unknown;
  for (;;) {
    const seen: SwarmEvent[] = [];
    events = seen;
    failure = undefined;
    const live = run.quiet ? undefined : progress();
    const options: RunOptions = {
      runId: run.runId,
      ...(run.journal && { journal: run.journal }),
      ...(approvals && { approvals }),
      ...(run.attachments && run.attachments.length > 0 && { attachments: run.attachments }),
      onEvent: (event) => {
        seen.push(event);
        live?.onEvent(event);
        run.onEvent?.(event);
      },
    };
    try {
      result = await run.topology.run(run.task, options);
    } catch (error) {
      failure = error;
    } finally {
      live?.stop();
    }
    if (!isPause(failure) || !run.ask) break;
    const answers = await run.ask(failure.pending);
    if (answers === undefined) break;
    approvals = answers;
  }

  const pending = isPause(failure) ? failure.pending : undefined;
  const resume =
    pending && run.journalDir !== undefined
      ? resumeCommandLine(run.journalDir, run.runId, pending)
      : undefined;
  // The outcome first: whatever happens to the files below, the answer is not lost.
  if (result) {
    const totals = {
      replayedCalls: result.replayedCalls ?? 0,
      liveCalls: result.liveCalls ?? result.llmCalls - (result.replayedCalls ?? 0),
    };
    out.write(run.json ? `${toJson({ runId: run.runId, ...result, ...totals })}\n` : `${result.output}\n`);
  } else if (pending) {
    out.write(
      run.json
        ? `${toJson({ paused: true, runId: run.runId, pending, ...callCounts(events), ...(resume && { resume }) })}\n`
        : pauseNotice(run.runId, pending, run.journalDir),
    );
  }
  const notWritten = [
    run.trace && writeOutput(run.trace, `${toJson(events)}\n`),
    run.report &&
      writeOutput(
        run.report,
        htmlReport({
          title: run.title,
          task: run.task,
          ...(result && { result }),
          ...(failure !== undefined && !pending && { error: errorMessage(failure) }),
          ...(resume && { resume }),
          events,
        }),
      ),
  ].filter((problem) => problem !== undefined);
  if (failure !== undefined && !pending) {
    const code = SwarmError.isInstance(failure) ? `${failure.code}: ` : '';
    throw new CliError([`the run failed: ${code}${errorMessage(failure)}`, ...notWritten].join('\n'), 1);
  }
  if (notWritten.length > 0) throw new CliError(notWritten.join('\n'), 1);
}

// A paused run has no result: its model calls, as its trace counts them (nested runs' included).
function callCounts(events: readonly SwarmEvent[]): {
  llmCalls: number;
  replayedCalls: number;
  liveCalls: number;
} {
  const calls = events.filter((e) => e.type === 'model.response');
  const replayedCalls = calls.filter((e) => e.replayed === true).length;
  return { llmCalls: calls.length, replayedCalls, liveCalls: calls.length - replayedCalls };
}
