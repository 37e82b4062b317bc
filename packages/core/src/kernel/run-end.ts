import type { Usage } from '../contracts/model.js';
import { isPause } from './errors.js';
import { journalOf, type RunContext } from './run-context.js';

/** A run's totals for its result, nested runs included. */
export interface RunTotals {
  usage: Usage;
  llmCalls: number;
  /** Of `llmCalls`, how many were answered from the run's journal. */
  replayedCalls: number;
  /** Of `llmCalls`, how many went to a model. */
  liveCalls: number;
}

/**
 * What a run that paused throws once its journal has ended: the pause with the run's totals so far
 * (nested runs included), or the ConfigError for approvals it was given and never used. For
 * topologies that build their own context; `runTopology` calls it for you.
 */
export function finishedPause(context: RunContext, pause: unknown): unknown {
  try {
    context.finishJournal();
  } catch (error) {
    return error;
  }
  return isPause(pause) ? pause.withTotals(runTotals(context)) : pause;
}

/**
 * A run's totals for its result, nested runs included: `usage`, `llmCalls`, and of those calls how
 * many were answered from the journal (`replayedCalls`) and how many went to a model (`liveCalls`).
 */
export function runTotals(context: RunContext): RunTotals {
  const { llmCalls, replayedCalls } = context;
  return { usage: { ...context.usage }, llmCalls, replayedCalls, liveCalls: llmCalls - replayedCalls };
}

/** How a run's failure is ended by `endedRun`. */
export interface RunEnding {
  /** The event that closes the trace: `run.error` (a topology's run) or `agent.error` (an Agent's). */
  type: 'run.error' | 'agent.error';
  /** The agent the event names, read when the run fails. */
  agent?: () => string | undefined;
  /** Maps the body's error to the run's (the input guardrail's trip when one cancelled the run). */
  failure?: (error: unknown) => Promise<unknown>;
  /**
   * Whether this run ends its journal (the outermost run that opened it; default true): a pause
   * then ends the journal and carries the run's totals so far.
   */
  ownsJournal?: boolean;
}

/**
 * The one ending of a failed run, for the Agent and every topology (`runTopology` uses it): the
 * error mapped by `failure`, a pause ended with the journal and the run's totals, then the trace
 * closed with `run.error` / `agent.error` (`run.paused` / `agent.paused` for a pause), and thrown.
 */
export async function endedRun<T>(
  context: RunContext,
  ending: RunEnding,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failed = ending.failure ? await ending.failure(error) : error;
    const owns = ending.ownsJournal !== false;
    const thrown = owns && isPause(failed) ? finishedPause(context, failed) : failed;
    // The outermost run ends here: its journal lease goes back (a pause gave it back as the journal finished).
    if (owns && context.parent === undefined) journalOf(context)?.release();
    context.emitError(ending.type, thrown, ending.agent?.());
    throw thrown;
  }
}
