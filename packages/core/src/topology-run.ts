import { type BudgetExceededError, SwarmError } from './errors.js';
import { RunContext, type RunOptions } from './run-context.js';
import type { TopologyResult } from './topology.js';

/** What a topology's body returns: its result without the totals, which the run fills in. */
export type TopologyOutcome<R extends TopologyResult> = Omit<R, 'usage' | 'llmCalls'>;

/**
 * Runs a topology's body inside its own run context (nested when `options.parent` is given):
 * emits `run.start`, then `run.end` with the totals or `run.error` with the error's code, and
 * returns the body's result with the run's `usage` and `llmCalls`, nested runs included.
 */
export async function runTopology<R extends TopologyResult>(
  topology: { readonly type: string; readonly name: string },
  start: Record<string, unknown>,
  options: RunOptions,
  body: (context: RunContext) => Promise<TopologyOutcome<R>>,
): Promise<R> {
  const context = new RunContext({ ...options, topology: topology.type });
  context.emit({ type: 'run.start', name: topology.name, ...start });
  let outcome: TopologyOutcome<R>;
  try {
    outcome = await body(context);
  } catch (error) {
    context.emitError('run.error', error);
    throw error;
  }
  const result = { ...outcome, usage: { ...context.usage }, llmCalls: context.llmCalls } as R;
  context.emit({
    type: 'run.end',
    output: result.output,
    usage: result.usage,
    llmCalls: result.llmCalls,
    ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
  });
  return result;
}

/**
 * The interruption reason when `error` is a budget stop (`'budget:calls'` or `'budget:tokens'`),
 * else undefined: topologies that can answer from what they have catch it and mark the result.
 */
export function budgetStop(error: unknown): BudgetExceededError['reason'] | undefined {
  if (SwarmError.isInstance(error) && error.code === 'BUDGET_EXCEEDED') {
    return (error as BudgetExceededError).reason;
  }
  return undefined;
}
