import { Agent, ConfigError, type ModelRequest } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { SwarmRouter } from '@swarm/router';
import { describe, expect, it } from 'vitest';
import { topologies } from './registry.js';

const agentsFor = (min = 1, max?: number) => {
  const count = Math.min(Math.max(min, 4), max ?? Number.POSITIVE_INFINITY);
  return Array.from(
    { length: count },
    (_, i) => new Agent({ name: `agent-${i}`, model: new ScriptedModel([]), instructions: `Agent ${i}.` }),
  );
};

describe('every descriptor of every package', () => {
  it.each(topologies.map((d) => [d.type, d] as const))(
    '%s refuses an unknown config key with a ConfigError naming it',
    (_type, descriptor) => {
      expect(descriptor.configSchema, 'a descriptor without a schema accepts anything').toBeDefined();
      const parsed = descriptor.configSchema!.safeParse({ notAnOption: 2 });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain('notAnOption');

      const build = () =>
        new SwarmRouter({
          agents: agentsFor(descriptor.minAgents, descriptor.maxAgents),
          swarmType: descriptor.type,
          topologies,
          config: { notAnOption: 2 },
        });
      expect(build).toThrow(ConfigError);
      expect(build).toThrow(/notAnOption/);
    },
  );
});

describe("swarms' roles: the same agents keep the same roles in every topology", () => {
  // What 'auto' builds for each type: the descriptor with no roles given. Every agent is a worker
  // (a member, a specialist) wherever it lands; the head is always a separate agent.
  const membersOf: Record<string, (topology: unknown) => readonly unknown[]> = {
    HierarchicalSwarm: (t) => (t as { agents: unknown[] }).agents,
    PlannerWorkerSwarm: (t) => (t as { workers: unknown[] }).workers,
    HeavySwarm: (t) => (t as { roles: { member: unknown }[] }).roles.map((r) => r.member),
    MixtureOfAgents: (t) => (t as { agents: unknown[] }).agents,
    LLMCouncil: (t) => (t as { members: unknown[] }).members,
    MajorityVoting: (t) => (t as { agents: unknown[] }).agents,
  };

  it.each(Object.keys(membersOf))('%s makes every agent a worker and its head a separate agent', (type) => {
    const agents = agentsFor(3, 3);
    const descriptor = topologies.find((d) => d.type === type)!;
    const router = new SwarmRouter({ agents, swarmType: 'auto', topologies, model: new ScriptedModel([]) });
    expect(router.types).toContain(type);
    const topology = descriptor.create(agents, descriptor.configSchema!.parse({}));
    expect(membersOf[type]!(topology)).toEqual(agents);
  });
});

describe("the router's maxLoops over the real descriptors", () => {
  const looping = [
    'SequentialWorkflow',
    'HierarchicalSwarm',
    'PlannerWorkerSwarm',
    'HeavySwarm',
    'DebateWithJudge',
    'RoundRobin',
    'MixtureOfAgents',
  ];

  it.each(looping)('%s takes the router maxLoops', (type) => {
    const descriptor = topologies.find((d) => d.type === type)!;
    const agents = agentsFor(descriptor.minAgents, descriptor.maxAgents);
    expect(() => new SwarmRouter({ agents, swarmType: type, topologies, maxLoops: 2 })).not.toThrow();
  });

  it("builds every type under 'auto' with maxLoops, and refuses it for a fixed type that does not loop", () => {
    const agents = agentsFor(3, 3);
    const model = new ScriptedModel([]);
    expect(
      () => new SwarmRouter({ agents, swarmType: 'auto', topologies, maxLoops: 2, model }),
    ).not.toThrow();
    expect(
      () => new SwarmRouter({ agents, swarmType: 'ConcurrentWorkflow', topologies, maxLoops: 2 }),
    ).toThrow(/ConcurrentWorkflow does not loop/);
    // MajorityVoting loops in its consensus mode only.
    expect(() => new SwarmRouter({ agents, swarmType: 'MajorityVoting', topologies, maxLoops: 2 })).toThrow(
      /MajorityVoting does not loop/,
    );
    expect(
      () =>
        new SwarmRouter({
          agents,
          swarmType: 'MajorityVoting',
          topologies,
          maxLoops: 2,
          config: { mode: 'consensus' },
        }),
    ).not.toThrow();
  });
});

describe("'auto' keeps every agent's role from one task to the next", () => {
  it('runs a HierarchicalSwarm task, then a MixtureOfAgents task: the agents work in both, the heads are separate', async () => {
    const choices = ['HierarchicalSwarm', 'MixtureOfAgents'];
    const model = new ScriptedModel([], {
      fallback: respond((request: ModelRequest) => {
        const purpose = request.metadata?.purpose;
        if (purpose === 'choose_topology')
          return {
            text: '',
            toolCalls: [
              { name: 'choose_topology', arguments: { swarmType: choices.shift(), reason: 'fits' } },
            ],
          };
        if (purpose === 'director') {
          const orders = ['agent-0', 'agent-1'].map((agentName, i) => ({
            id: `o${i}`,
            agentName,
            task: 'part',
          }));
          return {
            text: '',
            toolCalls: [{ name: 'final_output', arguments: { plan: 'p', orders, done: true } }],
          };
        }
        return `${request.metadata?.agent} answers`;
      }),
    });
    const agents = ['agent-0', 'agent-1'].map((name) => new Agent({ name, model }));
    const router = new SwarmRouter({ agents, swarmType: 'auto', topologies, model });

    const first = await router.run('Write a report.');
    const second = await router.run('Give a second opinion.');

    expect([first.swarmType, second.swarmType]).toEqual(['HierarchicalSwarm', 'MixtureOfAgents']);
    const heads = new Set(['choose_topology', 'director', 'final', 'feedback']);
    const byAgent = (name: string) => model.calls.filter((c) => c.metadata?.agent === name);
    // Each agent answered as a worker in both runs, and never made a head's call.
    for (const name of ['agent-0', 'agent-1']) {
      expect(byAgent(name).length).toBeGreaterThanOrEqual(2);
      expect(byAgent(name).every((c) => !heads.has(String(c.metadata?.purpose)))).toBe(true);
    }
    expect(byAgent('director').length).toBeGreaterThan(0);
    expect(byAgent('aggregator')).toHaveLength(1);
  });
});
