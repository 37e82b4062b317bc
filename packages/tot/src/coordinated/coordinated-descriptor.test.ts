import { Agent, ConfigError, type ModelRequest, tool } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  coordinatedTreeOfThoughtsConfigSchema,
  coordinatedTreeOfThoughtsDescriptor,
  coordinatedWorstCase,
} from './coordinated-descriptor.js';
import { plannerModel, scriptedTeam } from './test-support.js';

const task = 'Which three policies would halve a small town’s emissions?';

/**
 * The most expensive model: with repairs allowed every structured call's first attempt is invalid
 * (one repair each); the Planner always gives more thoughts than asked; every thought scores 9 and goes on.
 */
function costliestModel(repairs: boolean): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      const choice = request.toolChoice;
      if (typeof choice !== 'object') return 'the synthesis';
      const firstAttempt = repairs && request.messages.length === 1;
      const planning = choice.name.startsWith('propose');
      const args = firstAttempt
        ? { invalid: true }
        : planning
          ? { thoughts: ['one', 'two', 'three', 'four'] }
          : { score: 9, terminate: false, reasons: ['promising'] };
      return { toolCalls: [{ name: choice.name, arguments: args }] };
    }),
  });
}

describe('coordinatedTreeOfThoughtsDescriptor', () => {
  it("builds the topology on one agent's model for every role", async () => {
    const shared = new ScriptedModel([], {
      fallback: respond((request) => {
        const choice = request.toolChoice;
        if (typeof choice !== 'object') return 'the answer';
        const args = choice.name.startsWith('propose')
          ? { thoughts: ['A'] }
          : { score: 8, terminate: true, reasons: ['done'] };
        return { toolCalls: [{ name: choice.name, arguments: args }] };
      }),
    });
    const topology = coordinatedTreeOfThoughtsDescriptor.create(
      [new Agent({ name: 'thinker', model: shared })],
      {
        maxDepth: 2,
        initialThoughts: 1,
      },
    );

    const result = await topology.run(task);

    expect(topology.type).toBe('CoordinatedTreeOfThoughts');
    expect(result.output).toBe('the answer');
    expect(shared.calls.map((c) => c.metadata?.purpose)).toEqual(['plan', 'analyze', 'critique', 'agent']);
  });

  it('gives each role to the agent named after it, and the first agent’s model to the others', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const planner = new Agent({
      name: 'Planner',
      instructions: 'Plan boldly.',
      model: plannerModel({ '': ['A'] }),
    });
    const critic = new Agent({ name: 'critic', model: team.critic });
    const analyzer = new Agent({ name: 'analyzer', model: team.analyzer });
    const synthesizer = new Agent({ name: 'synthesizer', model: team.synthesizer });
    const topology = coordinatedTreeOfThoughtsDescriptor.create([planner, analyzer, critic, synthesizer], {
      maxDepth: 1,
      initialThoughts: 1,
    });

    const result = await topology.run(task);

    expect(result.output).toBe('answer from root-0');
    expect((planner.model as ScriptedModel).calls[0]?.system).toBe('Plan boldly.');
    expect(team.critic.calls).toHaveLength(1);
  });

  it('refuses agents that are not named after a role, and a role played twice', () => {
    const model = new ScriptedModel();
    const a = new Agent({ name: 'planner', model });
    const b = new Agent({ name: 'helper', model });
    expect(() => coordinatedTreeOfThoughtsDescriptor.create([a, b], {})).toThrow(ConfigError);
    expect(() => coordinatedTreeOfThoughtsDescriptor.create([a, b], {})).toThrow(/"helper" is not/);
    expect(() =>
      coordinatedTreeOfThoughtsDescriptor.create([a, new Agent({ name: 'PLANNER', model })], {}),
    ).toThrow(/two agents play the planner/);
  });

  it('validates a spec file’s config with its schema', () => {
    expect(coordinatedTreeOfThoughtsConfigSchema.safeParse({ maxDepth: 3, beamWidth: 2 }).success).toBe(true);
    const bad = coordinatedTreeOfThoughtsConfigSchema.safeParse({
      maxDepth: 0,
      scoreThreshold: 12,
      model: 'x',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.') || i.code)).toEqual([
      'maxDepth',
      'scoreThreshold',
      'unrecognized_keys',
    ]);
  });

  it.each([
    [{ maxDepth: 3, beamWidth: 2, initialThoughts: 3, maxRepairs: 1 }],
    [{ maxDepth: 2, initialThoughts: 3, maxRepairs: 0 }],
    [{ maxDepth: 3, beamWidth: 1, initialThoughts: 2, maxRepairs: 0 }],
  ])('previews exactly the calls of the costliest run (%o)', async (config) => {
    const agent = new Agent({ name: 'thinker', model: costliestModel(config.maxRepairs > 0) });
    const preview = coordinatedTreeOfThoughtsDescriptor.worstCase!([agent], config);
    const result = await coordinatedTreeOfThoughtsDescriptor.create([agent], config).run(task);

    expect(preview.maxCalls).toBe(result.llmCalls);
  });

  it('counts a researcher agent’s and a synthesizer agent’s tool loops at their maxTurns', () => {
    const search = tool({
      name: 'search',
      description: 'Search.',
      parameters: z.object({ q: z.string() }),
      execute: () => '',
    });
    const model = new ScriptedModel();
    const agents = [
      new Agent({ name: 'planner', model }),
      new Agent({ name: 'researcher', model, tools: [search], maxTurns: 3 }),
      new Agent({ name: 'synthesizer', model, maxTurns: 2 }),
    ];
    const config = { maxDepth: 1, initialThoughts: 2, maxRepairs: 0 };

    // 1 plan + 2 nodes x (3 research + 2 evaluations) + 2 synthesis.
    expect(coordinatedTreeOfThoughtsDescriptor.worstCase!(agents, config)).toEqual({ maxCalls: 13 });
  });

  it('says why there is no number when the tree outgrows safe integers without a beam', () => {
    const preview = coordinatedWorstCase({
      maxDepth: 40,
      beamWidth: undefined,
      initialThoughts: 3,
      maxRepairs: 1,
      researchCalls: 0,
      synthesisCalls: 1,
    });
    expect(preview).toEqual({ maxCalls: undefined, reason: expect.stringContaining('without a beamWidth') });
    expect(
      coordinatedWorstCase({
        maxDepth: 40,
        beamWidth: 2,
        initialThoughts: 3,
        maxRepairs: 1,
        researchCalls: 0,
        synthesisCalls: 1,
      }).maxCalls,
    ).toBe((1 + 39 * 2) * 2 + (3 + 39 * 6) * 4 + 1);
  });
});
