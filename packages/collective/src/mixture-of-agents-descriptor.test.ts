import { Agent, tool } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MixtureOfAgents } from './mixture-of-agents.js';
import { mixtureOfAgentsConfigSchema, mixtureOfAgentsDescriptor } from './mixture-of-agents-descriptor.js';
import { scripted } from './test-helpers.js';

describe('mixtureOfAgentsDescriptor', () => {
  it("by default (as swarms) makes every agent a worker, with a separate aggregator on the first agent's model", async () => {
    const a = scripted('a', () => 'a says');
    const b = scripted('b', () => 'b says');
    const moa = mixtureOfAgentsDescriptor.create([a.agent, b.agent], { layers: 1 }) as MixtureOfAgents;
    expect(moa.agents).toEqual([a.agent, b.agent]);
    expect(moa.aggregator.name).toBe('aggregator');
    await moa.run('q');
    expect(a.model.calls.map((c) => c.metadata?.agent)).toEqual(['a', 'aggregator']);
    expect(b.model.calls).toHaveLength(1);
  });

  it('builds workers and the aggregator named in roles from a flat agent list', async () => {
    const agg = scripted('agg', () => 'fused');
    const moa = mixtureOfAgentsDescriptor.create(
      [agg.agent, scripted('a', () => 'a').agent, scripted('b', () => 'b').agent],
      { roles: { aggregator: 'agg' }, layers: 1 },
    );
    const result = await moa.run('q');
    expect(moa.type).toBe('MixtureOfAgents');
    expect(result.output).toBe('fused');
    expect(agg.model.calls).toHaveLength(1);
  });

  it('rejects an aggregator name that is not among the agents, and bad config', () => {
    const a = scripted('a', () => '').agent;
    expect(() => mixtureOfAgentsDescriptor.create([a, a], { aggregator: 'zed' })).toThrow(/"zed"/);
    expect(mixtureOfAgentsConfigSchema.safeParse({ layers: 0 }).success).toBe(false);
  });

  it('gives a worst case equal to the calls of a run where every agent uses all its turns', async () => {
    // An agent with a tool that keeps calling it uses all its maxTurns, then fails; a plain agent answers once.
    const looping = () =>
      new Agent({
        name: 'looper',
        maxTurns: 3,
        model: new ScriptedModel([], { fallback: toolCall('noop', {}) }),
        tools: [tool({ name: 'noop', description: 'x', parameters: z.object({}), execute: () => 'ok' })],
      });
    const plain = new Agent({ name: 'plain', model: new ScriptedModel([], { fallback: reply('p') }) });
    const agg = new Agent({ name: 'agg', model: new ScriptedModel([], { fallback: reply('final') }) });
    const agents = [looping(), plain, agg];
    const config = { layers: 2, roles: { aggregator: 'agg' } };

    const worst = mixtureOfAgentsDescriptor.worstCase?.(agents, config);
    const result = await mixtureOfAgentsDescriptor.create(agents, config).run('q');

    expect(worst).toEqual({ maxCalls: 2 * (3 + 1) + 1 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
  });
});
