import type { Settled } from '../contracts/model.js';
import {
  type BudgetExceededError,
  isAbort,
  isPause,
  isTripwire,
  RunPausedError,
  SwarmError,
} from './errors.js';

/** Why a run stopped early for its budget: its calls or its tokens were spent. */
export type BudgetReason = BudgetExceededError['reason'];

/**
 * True for an error that ends the whole run rather than one member's work: an abort
 * (`AbortError`, code `'ABORTED'`), a tripped guardrail (`GuardrailTripwireError`), a budget refusal (`BudgetExceededError`) or a pause for a
 * person's approval (`RunPausedError`). Such an error is never retried and never stored as a
 * member's failure: rethrow it (after the members running beside it have settled).
 */
export function isRunStop(error: unknown): boolean {
  return isAbort(error) || isPause(error) || isTripwire(error) || budgetStop(error) !== undefined;
}

/**
 * Reads the settled outcomes of members run concurrently (`mapSettled`) for a run stop. An abort
 * among them is rethrown (the first in input order; it ends the run whatever else settled). Then
 * pauses: every member that waits for approval, as one `RunPausedError` listing all their calls
 * (the other members have finished and journaled their work). A budget refusal is returned (the
 * first in input order) as the run's stop: the caller answers from the members that did answer
 * and marks its result with `interruptionFields(stop.reason)`, or rethrows it when nothing
 * answered. Every other rejection is a failure of that member alone and is left to the caller.
 * Undefined when no outcome stops the run.
 */
export function settledStop<T>(settled: readonly Settled<T>[]): BudgetExceededError | undefined {
  for (const outcome of settled) {
    if (outcome.status === 'rejected' && (isAbort(outcome.reason) || isTripwire(outcome.reason))) {
      throw outcome.reason;
    }
  }
  const pauses = settled.flatMap((o) => (o.status === 'rejected' && isPause(o.reason) ? [o.reason] : []));
  if (pauses.length > 0) throw RunPausedError.merge(pauses);
  for (const outcome of settled) {
    if (outcome.status === 'rejected' && budgetStop(outcome.reason)) {
      return outcome.reason as BudgetExceededError;
    }
  }
  return undefined;
}

/**
 * The result fields of a run the budget stopped (`{ interrupted: true, interruptionReason }`),
 * or no fields at all for a run that was not stopped: spread them into a topology's result.
 * A topology whose public result always carries `interrupted` writes
 * `{ interrupted: false, ...interruptionFields(reason) }`.
 */
export function interruptionFields(
  reason: BudgetReason | undefined,
): { interrupted: true; interruptionReason: BudgetReason } | Record<never, never> {
  return reason ? { interrupted: true, interruptionReason: reason } : {};
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
