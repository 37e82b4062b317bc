import type { Approvals } from '../contracts/approval.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { ContentPart } from '../contracts/model.js';
import type { Budget, GuardrailOptions, RunHandle, RunLimiter } from '../contracts/run.js';
import type { Journal } from './journal.js';

/** Options every `run` accepts (guardrails given here hold for this run, beside the runnable's own). */
export interface RunOptions extends GuardrailOptions {
  /** Cancels every pending call of the run. */
  signal?: AbortSignal;
  /** Live trace: called with every event, in order. */
  onEvent?: (event: SwarmEvent) => void;
  /** Whole-run budget, all agents together. */
  budget?: Budget;
  /** Shared concurrency / rate limit (a `Limiter`). */
  limiter?: RunLimiter;
  /** Stream model text as `model.delta` events where the provider streams (on in `stream()`). */
  textDeltas?: boolean;
  /**
   * The run this one is nested in (a `RunContext`). A nested run joins its parent: the parent's
   * signal, limiter and budget hold for it, its calls and usage count in the parent's totals as
   * they happen, and its events reach the parent's listener stamped with `parentRunId` and `path`.
   */
  parent?: RunHandle;
  /**
   * The tool call of the parent run that this nested run answers (`asTool` sets it): stamped on
   * the nested run's events as `parentToolCallId`, so a trace viewer can hang the run under it.
   */
  parentToolCallId?: string;
  /**
   * Where the run keeps every model call's and tool execution's answer as it goes (write-ahead), so
   * that running it again with the same `runId` answers the finished calls from here, at any depth
   * of nesting, and goes on live from the first call the journal does not hold. Give it to the
   * outermost run only: nested runs share it.
   */
  journal?: Journal;
  /**
   * The run's id: its key in the journal (a run given the id of a journaled run resumes it) and the
   * `runId` of its events. Generated when absent. 1 to 128 letters, digits, `.`, `_` or `-`.
   */
  runId?: string;
  /**
   * Decisions on the calls a paused run waits for (`RunPausedError.pending`), by id: resumes it.
   * Needs the run's `journal` and `runId`; an id the journal does not hold as waiting is a ConfigError.
   */
  approvals?: Approvals;
  /**
   * Images and files that go with the task: every agent of the run given text (the task, or text
   * made from it) gets them after that text in its first turn; nested runs inherit them.
   */
  attachments?: ContentPart[];
}
