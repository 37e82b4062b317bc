import type { Settled } from '../contracts/model.js';
import { mapSettled } from '../kernel/concurrency.js';
import { isPause } from '../kernel/errors.js';
import {
  type GuardrailOptions,
  type GuardrailRun,
  type Guardrails,
  joinGuardrails,
  startGuardrails,
  validateGuardrails,
} from '../kernel/guardrail.js';
import { RunContext, type RunOptions, withTally } from '../kernel/run-context.js';
import { endedRun, runTotals } from '../kernel/run-end.js';
import type { TopologyResult } from './topology.js';

/** What a topology's body returns: its result without the totals, which the run fills in. */
export type TopologyOutcome<R extends TopologyResult> = Omit<
  R,
  'usage' | 'llmCalls' | 'replayedCalls' | 'liveCalls'
>;

/** What `runTopology` can be told beyond its start record; every hook is optional. */
export interface TopologyRunHooks<R extends TopologyResult> {
  /** Fields `run.end` carries besides `output`, `usage`, `llmCalls` and the interruption (e.g. the agent that answered). */
  endEvent?: (result: R) => Record<string, unknown>;
  /**
   * Runs once the output guardrails passed and the journal ended, before `run.end`: work only a
   * run that succeeded may do (saving a session, say). Its failure is the run's (`run.error`).
   */
  commit?: (result: R) => Promise<void> | void;
  /** The agent `run.error` names, read when the run fails (the one whose turn it was, say). */
  errorAgent?: () => string | undefined;
}

/**
 * Runs a topology's body inside its own run context (nested when `options.parent` is given):
 * reads the run's journal first (if given one), starts the topology's and the run's input
 * guardrails on the start's `task` (else on the whole start as JSON), emits `run.start`, runs the
 * body, checks its output with the output guardrails, ends the journal, then emits `run.end` with
 * the totals, `run.paused` for a pause (its totals so far) or `run.error` with the error's code,
 * and returns the body's result with the run's `usage`, `llmCalls`, `replayedCalls` and
 * `liveCalls`, nested runs and guardrail agents included. `hooks` add to that lifecycle.
 */
export async function runTopology<R extends TopologyResult>(
  topology: { readonly type: string; readonly name: string } & GuardrailOptions,
  start: Record<string, unknown>,
  options: RunOptions,
  body: (context: RunContext) => Promise<TopologyOutcome<R>>,
  hooks: TopologyRunHooks<R> = {},
): Promise<R> {
  const { context, passed, failure } = await openTopologyRun(topology, inputOf(start), options);
  context.emit({ type: 'run.start', name: topology.name, ...start });
  const ending = {
    type: 'run.error',
    failure,
    ...(hooks.errorAgent && { agent: hooks.errorAgent }),
  } as const;
  const result = await endedRun(context, ending, async () => {
    const outcome = await body(context);
    await passed(outcome.output);
    // The journal's end (approvals never used are a ConfigError) comes before the trace closes.
    context.finishJournal();
    // Taken after the output guardrails, so that a guardrail agent's calls are in them.
    const totalled = { ...outcome, ...runTotals(context) } as R;
    await hooks.commit?.(totalled);
    return totalled;
  });
  context.emit({
    type: 'run.end',
    output: result.output,
    usage: result.usage,
    llmCalls: result.llmCalls,
    ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
    ...hooks.endEvent?.(result),
  });
  return result;
}

/** Options of `runTopologyBatch`: the run's, and how many tasks run at once. */
export interface TopologyBatchOptions extends RunOptions {
  /** Most tasks running at once (default: all of them). */
  concurrency?: number;
}

/**
 * Runs many tasks as one run of a topology, with the lifecycle of `runTopology`: one context and
 * journal for the batch, `run.start` with the number of tasks, then `body` (the batch's setup,
 * such as routing every task at once), which returns what runs one task. Each task runs in the
 * batch's context, at most `options.concurrency` at once, under the topology's and the run's
 * guardrails for that task alone: a task whose input guardrail trips is rejected with
 * `GuardrailTripwireError` and its calls cancelled, while the others go on. Returns settled
 * results in task order, each with that task's totals (its guardrail agents' calls included);
 * `run.end` carries the batch's. A failing setup or journal end is the run's: `run.error`, thrown.
 */
export async function runTopologyBatch<R extends TopologyResult>(
  topology: { readonly type: string; readonly name: string } & GuardrailOptions,
  tasks: readonly string[],
  options: TopologyBatchOptions,
  body: (
    context: RunContext,
  ) => Promise<(task: string, index: number, context: RunContext) => Promise<TopologyOutcome<R>>>,
): Promise<Settled<R>[]> {
  const { concurrency, ...runOptions } = options;
  const guardrails = joinGuardrails(
    validateGuardrails(topology, topology.type),
    validateGuardrails(runOptions, `${topology.type} run`),
  );
  const context = await RunContext.open({ ...runOptions, topology: topology.type });
  context.emit({ type: 'run.start', name: topology.name, tasks: tasks.length });
  const results = await endedRun(context, { type: 'run.error' }, async () => {
    const runTask = await body(context);
    const settled = await mapSettled(
      tasks,
      (task, i) => guardedTask<R>(context, guardrails, task, (taskContext) => runTask(task, i, taskContext)),
      {
        ...(concurrency !== undefined && { concurrency }),
        ...(context.signal && { signal: context.signal }),
      },
    );
    context.finishJournal();
    return settled;
  });
  context.emit({ type: 'run.end', usage: { ...context.usage }, llmCalls: context.llmCalls });
  return results;
}

// One task of a batch: in a view of the batch's context with its own cancel signal, call gate and
// tally, so its guardrails hold and cancel its calls alone, and its totals are its own.
async function guardedTask<R extends TopologyResult>(
  batch: RunContext,
  guardrails: Guardrails | undefined,
  task: string,
  run: (context: RunContext) => Promise<TopologyOutcome<R>>,
): Promise<R> {
  const trip = guardrails && new AbortController();
  const { context, tally } = withTally(batch.withSignal(trip?.signal));
  const { passed, failure } = startGuardrails(context, trip, guardrails, task);
  const totals = () => ({
    usage: { ...tally.usage },
    llmCalls: tally.llmCalls,
    replayedCalls: tally.replayedCalls,
    liveCalls: tally.llmCalls - tally.replayedCalls,
  });
  try {
    const outcome = await run(context);
    await passed(outcome.output);
    return { ...outcome, ...totals() } as R;
  } catch (error) {
    const failed = await failure(error);
    throw isPause(failed) ? failed.withTotals(totals()) : failed;
  }
}

/** A topology run's context, with the guardrails started on it. */
export interface TopologyRun extends GuardrailRun {
  context: RunContext;
}

/**
 * @deprecated Use `runTopology` (or `runTopologyBatch`), which call it: a lifecycle written by hand
 * beside them drifts (guardrails skipped, totals taken before the output guardrails ran).
 *
 * For topologies that build their own context: opens the run's
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
