import { describe, expect, it } from 'vitest';
import type { HierarchicalSwarm } from './hierarchical-swarm.js';
import { hierarchicalSwarmDescriptor } from './hierarchical-swarm-descriptor.js';
import { forced, modelOf, toolAgents, worstWorker } from './worst-case.fixture.js';

describe('hierarchicalSwarmDescriptor', () => {
  it("by default (as swarms) makes every agent a worker, directed by a separate director on the first agent's model", async () => {
    const model = modelOf((request) =>
      request.metadata?.purpose === 'director'
        ? forced(request, { plan: 'p', orders: [{ id: 'o1', agentName: 'writer', task: 't' }], done: true })
        : `${request.metadata?.agent} says hi`,
    );
    const [writer, editor] = toolAgents(['writer', 'editor'], model, 1);
    const swarm = hierarchicalSwarmDescriptor.create([writer!, editor!], {}) as HierarchicalSwarm;
    const result = await swarm.run('task');
    expect(swarm.agents).toEqual([writer, editor]);
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['director', 'writer', 'director']);
    expect(result.output).toBe('director says hi');
  });

  it('lets roles.director name an agent, who then only directs', async () => {
    const model = modelOf((request) =>
      request.metadata?.purpose === 'director'
        ? forced(request, { plan: 'p', orders: [{ id: 'o1', agentName: 'writer', task: 't' }], done: true })
        : `${request.metadata?.agent} says hi`,
    );
    const [boss, writer] = toolAgents(['boss', 'writer'], model, 1);
    const swarm = hierarchicalSwarmDescriptor.create([boss!, writer!], { roles: { director: 'boss' } });
    const result = await swarm.run('task');
    expect(swarm.type).toBe('HierarchicalSwarm');
    expect((swarm as HierarchicalSwarm).agents).toEqual([writer]);
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['boss', 'writer', 'boss']);
    expect(result.output).toBe('boss says hi');
    expect(() =>
      hierarchicalSwarmDescriptor.create([boss!, writer!], { roles: { director: 'boss' }, director: 'boss' }),
    ).toThrow(/give the director once/);
    expect(() => hierarchicalSwarmDescriptor.create([boss!], { roles: { director: 'boss' } })).toThrow(
      /at least one worker/,
    );
  });

  it('refuses a Topology as roles.director: a director makes structured decisions', () => {
    const model = modelOf(() => 'hi');
    const [writer, editor] = toolAgents(['writer', 'editor'], model, 1);
    const team = hierarchicalSwarmDescriptor.create([editor!], {});
    expect(() => hierarchicalSwarmDescriptor.create([writer!], { roles: { director: team } })).toThrow(
      /roles\.director is a Topology, but the director makes structured decisions/,
    );
  });

  it('validates its config', () => {
    const schema = hierarchicalSwarmDescriptor.configSchema!;
    expect(schema.safeParse({ maxLoops: 2, directorFeedback: true }).success).toBe(true);
    expect(schema.safeParse({ maxLoops: 0 }).success).toBe(false);
    expect(schema.safeParse({ maxLoop: 2 }).success).toBe(false);
  });

  it('has a worst case equal to the calls of a run that takes the most expensive path', async () => {
    const config = {
      roles: { director: 'boss' },
      maxLoops: 2,
      maxOrders: 3,
      maxAgentRetries: 1,
      maxRepairs: 1,
      directorFeedback: true,
    };
    const maxTurns = 2;
    let directorCalls = 0;
    const workerPath = worstWorker(config.maxAgentRetries + 1, maxTurns);
    // The director is an Agent with a tool: its feedback and final answer may call it on every turn but the last.
    const directorProse = worstWorker(1, maxTurns);
    const model = modelOf((request) => {
      if (request.metadata?.purpose === 'director') {
        directorCalls += 1;
        const repaired = directorCalls % (config.maxRepairs + 1) === 0;
        const orders = ['a', 'b', 'c'].map((id) => ({
          id: `${id}${directorCalls}`,
          agentName: repaired ? (id === 'a' ? 'w1' : 'w2') : 'nobody',
          task: `task ${id} of call ${directorCalls}`,
        }));
        return forced(request, { plan: 'p', orders, done: false });
      }
      if (request.metadata?.purpose === 'agent') return workerPath(request);
      return directorProse(request);
    });
    const agents = toolAgents(['boss', 'w1', 'w2'], model, maxTurns);
    const worst = hierarchicalSwarmDescriptor.worstCase!(agents, config);

    const result = await hierarchicalSwarmDescriptor.create(agents, config).run('task');

    // 2 loops x (2 director calls + 3 orders x 2 attempts x 2 turns) + feedback and final answer,
    // 2 turns each (the director runs its tool loop)
    expect(worst).toEqual({ maxCalls: 2 * (2 + 12) + 2 + 2 });
    expect(model.calls).toHaveLength(worst.maxCalls!);
    expect(result.llmCalls).toBe(worst.maxCalls);
  });
});
