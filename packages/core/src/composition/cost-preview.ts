import type { Agent } from '../agent/agent.js';
import { ConfigError } from '../kernel/errors.js';
import type { Budget } from '../kernel/run-context.js';
import type { TopologyDescriptor } from './topology.js';

/** What a run may cost at worst, and whether the budget covers it: asked for before the run starts. */
export interface CostPreview {
  /** The topology type previewed. */
  type: string;
  /** The most model calls one run can make; undefined when no bound can be given. */
  maxCalls: number | undefined;
  /** Why there is no bound (undefined when there is one). */
  reason?: string;
  /** The budget's `maxCalls`, when one was given. */
  budgetCalls?: number;
  /**
   * False when the budget may stop the run before it is done (the worst case exceeds it, or has no
   * bound); true when it cannot, or when no call budget was given.
   */
  fitsBudget: boolean;
  /** One line for a person: the preview, and the budget's shortfall if any. */
  message: string;
}

/**
 * Previews the cost of running `descriptor`'s topology with these agents and config, before any
 * call: its worst case (`descriptor.worstCase`) against the budget, if one is given. A router's or
 * a spec's user calls it (`preview: true` in a CLI) so that a budget too small for the run is
 * reported before the run starts, never found out from an interrupted result.
 */
export function previewRun<C>(
  descriptor: TopologyDescriptor<C>,
  agents: readonly Agent[],
  config: C,
  budget: Budget = {},
): CostPreview {
  if (!descriptor || typeof descriptor.type !== 'string') {
    throw new ConfigError('previewRun: give a TopologyDescriptor.');
  }
  const { type } = descriptor;
  const budgetCalls = budget.maxCalls;
  if (budgetCalls !== undefined && !(Number.isInteger(budgetCalls) && budgetCalls >= 0)) {
    throw new ConfigError(`previewRun: budget.maxCalls must be an integer >= 0 (got ${budgetCalls}).`);
  }
  const worst = descriptor.worstCase
    ? descriptor.worstCase(agents, config)
    : { maxCalls: undefined, reason: `the ${type} descriptor gives no worstCase` };
  const within = budgetCalls === undefined ? '' : ` within a budget of ${budgetCalls} calls`;
  if (worst.maxCalls === undefined) {
    const fitsBudget = budgetCalls === undefined;
    const verdict = fitsBudget ? '' : `; the budget of ${budgetCalls} calls may stop it`;
    return {
      type,
      maxCalls: undefined,
      reason: worst.reason,
      ...(budgetCalls !== undefined && { budgetCalls }),
      fitsBudget,
      message: `${type}: no bound on model calls (${worst.reason})${verdict}.`,
    };
  }
  const { maxCalls } = worst;
  const fitsBudget = budgetCalls === undefined || maxCalls <= budgetCalls;
  const verdict = fitsBudget
    ? within
    : `, more than the budget of ${budgetCalls}: the run may be stopped after ${budgetCalls} calls`;
  return {
    type,
    maxCalls,
    ...(budgetCalls !== undefined && { budgetCalls }),
    fitsBudget,
    message: `${type}: at most ${maxCalls} model calls${verdict}.`,
  };
}
