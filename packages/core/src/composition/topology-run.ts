import { isPause } from '../kernel/errors.js';
import {
  type GuardrailOptions,
  type GuardrailRun,
  joinGuardrails,
  startGuardrails,
  validateGuardrails,
} from '../kernel/guardrail.js';
import { RunContext, type RunOptions } from '../kernel/run-context.js';
import { finishedPause, runTotals } from '../kernel/run-end.js';
import type { TopologyResult } from './topology.js';

/** What a topology's body returns: its result without the totals, which the run fills in. */
export type TopologyOutcome<R extends TopologyResult> = Omit<
  R,
  'usage' | 'llmCalls' | 'replayedCalls' | 'liveCalls'
>;

/**
 * Runs a topology's body inside its own run context (nested when `options.parent` is given):
 * reads the run's journal first (if given one), emits `run.start`, then `run.end` with the totals,
 * `run.paused` for a pause or `run.error` with the error's code, and returns the body's result
 * with the run's `usage`, `llmCalls`, `replayedCalls` and `liveCalls`, nested runs included.
 */
export async function runTopology<R extends TopologyResult>(
  topology: { readonly type: string; readonly name: string } & GuardrailOptions,
  start: Record<string, unknown>,
  options: RunOptions,
  body: (context: RunContext) => Promise<TopologyOutcome<R>>,
): Promise<R> {
  const { context, passed, failure } = await openTopologyRun(topology, inputOf(start), options);
  context.emit({ type: 'run.start', name: topology.name, ...start });
  let outcome: TopologyOutcome<R>;
  try {
    outcome = await body(context);
    await passed(outcome.output);
    // The journal's end (approvals never used are a ConfigError) comes before the trace closes.
    context.finishJournal();
  } catch (error) {
    const failed = await failure(error);
    const thrown = isPause(failed) ? finishedPause(context, failed) : failed;
    context.emitError('run.error', thrown);
    throw thrown;
  }
  const result = { ...outcome, ...runTotals(context) } as R;
  context.emit({
    type: 'run.end',
    output: result.output,
    usage: result.usage,
    llmCalls: result.llmCalls,
    ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
  });
  return result;
}

/** A topology run's context, with the guardrails started on it. */
export interface TopologyRun extends GuardrailRun {
  context: RunContext;
}

/**
 * For topologies that build their own context (`runTopology` calls it for you): opens the run's
 * context (its journal read first) and starts the guardrails of the topology (its
 * `inputGuardrails` / `outputGuardrails` options) and of the run on `task`. Call `passed(output)`
 * before returning the result, and throw `await failure(error)` when the run fails.
 */
export async function openTopologyRun(
  topology: { readonly type: string } & GuardrailOptions,
  task: string,
  options: RunOptions,
): Promise<TopologyRun> {
  const guardrails = joinGuardrails(
    validateGuardrails(topology, topology.type),
    validateGuardrails(options, `${topology.type} run`),
  );
  const trip = guardrails && new AbortController();
  const context = await RunContext.open({
    ...options,
    topology: topology.type,
    ...(trip && { signal: options.signal ? AbortSignal.any([options.signal, trip.signal]) : trip.signal }),
  });
  return { context, ...startGuardrails(context, trip, guardrails, task) };
}

// What a topology's input guardrails check: the task of its `run.start`, else all of it as JSON.
function inputOf(start: Record<string, unknown>): string {
  return typeof start.task === 'string' ? start.task : JSON.stringify(start);
}

export { finishedPause, runTotals } from '../kernel/run-end.js';
export { budgetStop } from '../kernel/run-stop.js';
