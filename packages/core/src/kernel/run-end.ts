import type { Usage } from '../contracts/model.js';
import { isPause } from './errors.js';
import type { RunContext } from './run-context.js';

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
