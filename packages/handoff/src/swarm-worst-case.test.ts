import { Agent, tool } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { swarmDescriptor } from './swarm-descriptor.js';

const noop = tool({
  name: 'noop',
  description: 'Does nothing.',
  parameters: z.object({}),
  execute: () => 'ok',
});

/**
 * Peers whose models always take the most expensive path: every turn spends all `maxTurns` calls,
 * calling `noop` until the last one, which hands off to `next[name]` while handoff tools are offered
 * and answers once they are taken away.
 */
function expensivePeers(maxTurns: Record<string, number>, next: Record<string, string>) {
  const models = new Map<string, ScriptedModel>();
  const agents = Object.entries(maxTurns).map(([name, turns]) => {
    let calls = 0;
    const model = new ScriptedModel([], {
      fallback: respond((request) => {
        calls += 1;
        if (calls % turns !== 0) return { toolCalls: [{ name: 'noop', arguments: {} }] };
        const canHandOff = request.tools?.some((t) => t.name === 'handoff');
        if (!canHandOff) return `${name} answers`;
        return {
          toolCalls: [{ name: 'handoff', arguments: { target: next[name], message: 'over to you' } }],
        };
      }),
    });
    models.set(name, model);
    return new Agent({ name, model, tools: [noop], maxTurns: turns });
  });
  const total = () => [...models.values()].reduce((sum, m) => sum + m.calls.length, 0);
  return { agents, total };
}

describe('swarmDescriptor.worstCase: (1 + maxHandoffs) turns of maxTurns calls', () => {
  it('a ring of peers that always hands off at the last call makes exactly (1 + maxHandoffs) * maxTurns calls', async () => {
    const { agents, total } = expensivePeers({ a: 3, b: 3, c: 3 }, { a: 'b', b: 'c', c: 'a' });
    const config = { maxHandoffs: 4 };
    expect(swarmDescriptor.worstCase!(agents, config)).toEqual({ maxCalls: (1 + 4) * 3 });

    const result = await swarmDescriptor.create(agents, config).run('Help.');

    expect(total()).toBe(15);
    expect(result.llmCalls).toBe(15);
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'swarm:max_handoffs' });
  });

  it('counts only the walks the handoff map allows: an agent with no targets must answer', async () => {
    const { agents, total } = expensivePeers({ triage: 2, billing: 3 }, { triage: 'billing' });
    const config = { handoffs: { triage: ['billing'] }, maxHandoffs: 8 };
    expect(swarmDescriptor.worstCase!(agents, config)).toEqual({ maxCalls: 2 + 3 });

    await swarmDescriptor.create(agents, config).run('Help.');
    expect(total()).toBe(5);
  });

  it('two agents bouncing the conversation are stopped by cycle detection after six turns', async () => {
    const { agents, total } = expensivePeers({ a: 2, b: 2 }, { a: 'b', b: 'a' });
    expect(swarmDescriptor.worstCase!(agents, { maxHandoffs: 8 })).toEqual({ maxCalls: 6 * 2 });
    expect(swarmDescriptor.worstCase!(agents, { maxHandoffs: 8, detectCycles: false })).toEqual({
      maxCalls: 9 * 2,
    });

    const result = await swarmDescriptor.create(agents, { maxHandoffs: 8 }).run('Help.');
    expect(total()).toBe(12);
    expect(result.interruptionReason).toBe('swarm:cycle_detected');
  });

  it('a session resumed by its last agent may start anywhere the entry agent reaches', async () => {
    const { agents, total } = expensivePeers({ a: 1, b: 4 }, { a: 'b', b: 'a' });
    const config = { maxHandoffs: 2, detectCycles: false };
    // From a: a, b, a = 6 calls; a session whose last answer came from b resumes there: b, a, b = 9.
    expect(swarmDescriptor.worstCase!(agents, config)).toEqual({ maxCalls: 9 });
    expect(swarmDescriptor.worstCase!(agents, { ...config, resumeLastAgent: false })).toEqual({
      maxCalls: 6,
    });

    // Started at b, as a session whose last answer came from b would be.
    const team = swarmDescriptor.create(agents, { ...config, entryAgent: 'b' });
    await team.run('Help.');
    expect(total()).toBe(9);
  });

  it('falls back to the plain bound when there are too many walks to go through', () => {
    const { agents } = expensivePeers({ a: 2, b: 3, c: 1 }, {});
    expect(swarmDescriptor.worstCase!(agents, { maxHandoffs: 5_000, detectCycles: false })).toEqual({
      maxCalls: 5_001 * 3,
    });
  });

  it('rejects a bad config the way create does, and validates the JSON config of a spec', () => {
    const { agents } = expensivePeers({ a: 1 }, {});
    expect(() => swarmDescriptor.worstCase!(agents, { entryAgent: 'z' })).toThrow(/entryAgent "z"/);
    const schema = swarmDescriptor.configSchema!;
    expect(schema.safeParse({ maxHandoffs: 3, handoffs: { a: ['b'] }, detectCycles: false }).success).toBe(
      true,
    );
    expect(schema.safeParse({ maxHandoffs: 0 }).error?.issues[0]?.path).toEqual(['maxHandoffs']);
    expect(schema.safeParse({ sessions: {} }).success).toBe(false);
  });
});
