import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { ConfigError } from '../kernel/errors.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { previewRun } from './cost-preview.js';
import type { TopologyDescriptor, WorstCase } from './topology.js';

const agents = [new Agent({ name: 'a', model: new ScriptedModel(), maxTurns: 3 })];

function descriptor(worstCase?: (agents: readonly Agent[], config: { loops?: number }) => WorstCase) {
  const d: TopologyDescriptor<{ loops?: number }> = {
    type: 'Loop',
    description: 'Runs the agent in loops.',
    create: () => {
      throw new Error('previewRun must not build the topology');
    },
  };
  if (worstCase) d.worstCase = worstCase;
  return d;
}

const loops = descriptor((all, config) => ({ maxCalls: (config.loops ?? 1) * all[0]!.maxTurns }));

describe('previewRun', () => {
  it('reports a budget smaller than the worst case before any call, saying by how much', () => {
    expect(previewRun(loops, agents, { loops: 4 }, { maxCalls: 10 })).toEqual({
      type: 'Loop',
      maxCalls: 12,
      budgetCalls: 10,
      fitsBudget: false,
      message:
        'Loop: at most 12 model calls, more than the budget of 10: the run may be stopped after 10 calls.',
    });
  });

  it('passes a budget that covers the worst case, and a run with no call budget', () => {
    expect(previewRun(loops, agents, { loops: 4 }, { maxCalls: 12 })).toMatchObject({
      maxCalls: 12,
      fitsBudget: true,
      message: 'Loop: at most 12 model calls within a budget of 12 calls.',
    });
    expect(previewRun(loops, agents, {})).toEqual({
      type: 'Loop',
      maxCalls: 3,
      fitsBudget: true,
      message: 'Loop: at most 3 model calls.',
    });
  });

  it('never calls an unbounded run or one without a worstCase a fit for a call budget', () => {
    const unbounded = descriptor(() => ({ maxCalls: undefined, reason: 'it loops until the judge agrees' }));
    expect(previewRun(unbounded, agents, {}, { maxCalls: 50 })).toEqual({
      type: 'Loop',
      maxCalls: undefined,
      reason: 'it loops until the judge agrees',
      budgetCalls: 50,
      fitsBudget: false,
      message:
        'Loop: no bound on model calls (it loops until the judge agrees); the budget of 50 calls may stop it.',
    });
    expect(previewRun(descriptor(), agents, {})).toMatchObject({
      maxCalls: undefined,
      reason: 'the Loop descriptor gives no worstCase',
      fitsBudget: true,
    });
  });

  it('rejects a budget that is not a count of calls', () => {
    expect(() => previewRun(loops, agents, {}, { maxCalls: -1 })).toThrow(ConfigError);
    expect(() => previewRun(loops, agents, {}, { maxCalls: 1.5 })).toThrow(
      /budget.maxCalls must be an integer/,
    );
  });
});
