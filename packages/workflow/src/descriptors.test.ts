import { Agent, ConfigError, type TopologyDescriptor } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import {
  agentRearrangeDescriptor,
  batchedGridWorkflowDescriptor,
  concurrentWorkflowDescriptor,
  graphWorkflowDescriptor,
  roundRobinDescriptor,
  sequentialWorkflowDescriptor,
} from './descriptors.js';
import { callsOf, mostExpensiveModel, noopTool, team } from './test-support.js';

const maxTurns = 3;

/** Agents whose model always takes the most expensive path: `maxTurns` calls per agent run. */
function expensiveAgents(...names: string[]) {
  const model = mostExpensiveModel(maxTurns);
  return { model, agents: names.map((name) => new Agent({ name, model, tools: [noopTool], maxTurns })) };
}

describe('workflow descriptors: worstCase is the real maximum', () => {
  const cases: [string, TopologyDescriptor<never>, unknown, string[], number][] = [
    ['SequentialWorkflow', sequentialWorkflowDescriptor as never, {}, ['a', 'b', 'c'], 9],
    [
      'ConcurrentWorkflow',
      concurrentWorkflowDescriptor as never,
      { aggregator: 'judge' },
      ['a', 'b', 'judge'],
      9,
    ],
    ['AgentRearrange', agentRearrangeDescriptor as never, { flow: 'a -> b, c -> a' }, ['a', 'b', 'c'], 12],
    ['SequentialWorkflow', sequentialWorkflowDescriptor as never, { maxLoops: 2 }, ['a', 'b'], 12],
    [
      'AgentRearrange',
      agentRearrangeDescriptor as never,
      { flow: 'a -> b', maxLoops: 3, context: 'previous' },
      ['a', 'b'],
      18,
    ],
    ['RoundRobin', roundRobinDescriptor as never, { rounds: 2 }, ['a', 'b'], 12],
    ['BatchedGridWorkflow', batchedGridWorkflowDescriptor as never, {}, ['a', 'b'], 6],
    [
      'GraphWorkflow',
      graphWorkflowDescriptor as never,
      {
        edges: [
          ['a', 'b'],
          ['a', 'c'],
        ],
      },
      ['a', 'b', 'c'],
      9,
    ],
  ];

  it.each(cases)(
    '%s: a run that always takes the most expensive path makes exactly worstCase calls',
    async (type, descriptor, config, names, expected) => {
      const { model, agents } = expensiveAgents(...names);
      const worst = descriptor.worstCase!(agents, config as never);
      expect(worst).toEqual({ maxCalls: expected });

      const topology = descriptor.create(agents, config as never);
      const result = await topology.run('Do the job.');
      expect(topology.type).toBe(type);
      expect(model.calls).toHaveLength(expected);
      expect(result.llmCalls).toBe(expected);
    },
  );
});

describe('workflow descriptors: config', () => {
  it('accepts the JSON config a spec may give and rejects anything else, by path', () => {
    expect(agentRearrangeDescriptor.configSchema!.safeParse({ flow: 'a -> b', maxWorkers: 2 }).success).toBe(
      true,
    );
    expect(agentRearrangeDescriptor.configSchema!.safeParse({}).success).toBe(false);
    expect(graphWorkflowDescriptor.configSchema!.safeParse({ edges: [['a', 'b']] }).success).toBe(true);
    const bad = graphWorkflowDescriptor.configSchema!.safeParse({ edges: [['a']] });
    expect(bad.error?.issues[0]?.path).toEqual(['edges', 0]);
    expect(concurrentWorkflowDescriptor.configSchema!.safeParse({ onError: 'ignore' }).success).toBe(false);
    expect(roundRobinDescriptor.configSchema!.safeParse({ rounds: 0 }).success).toBe(false);
    expect(sequentialWorkflowDescriptor.configSchema!.safeParse({ loops: 2 }).success).toBe(false);
    expect(
      sequentialWorkflowDescriptor.configSchema!.safeParse({
        context: 'previous',
        maxLoops: 2,
        teamAwareness: true,
      }).success,
    ).toBe(true);
    expect(sequentialWorkflowDescriptor.configSchema!.safeParse({ context: 'all' }).success).toBe(false);
    expect(batchedGridWorkflowDescriptor.configSchema!.safeParse({ maxWorkers: 4 }).success).toBe(true);
  });

  it('builds pipelines with the context, loops and team awareness the config gives', () => {
    const { agents } = team(['a', 'b']);
    const pipeline = { context: 'previous', maxLoops: 2, teamAwareness: true } as const;
    expect(sequentialWorkflowDescriptor.create(agents, pipeline)).toMatchObject(pipeline);
    expect(agentRearrangeDescriptor.create(agents, { flow: 'a -> b', ...pipeline })).toMatchObject(pipeline);
  });

  it('builds a concurrent workflow whose named aggregator answers from the other agents', async () => {
    const { model, agents } = team(['a', 'b', 'judge'], { judge: 'verdict' });
    const topology = concurrentWorkflowDescriptor.create(agents, { aggregator: 'judge' });
    const result = await topology.run('go');

    expect(result.output).toBe('verdict');
    expect(callsOf(model, 'judge')).toHaveLength(1);
    expect(callsOf(model, 'judge')[0]!.messages.map((m) => m.name)).toEqual([undefined, 'a', 'b', undefined]);
    expect(() => concurrentWorkflowDescriptor.create(agents, { aggregator: 'nobody' })).toThrow(
      /aggregator "nobody" is not one of the agents \(a, b, judge\)/,
    );
  });

  it('builds a graph whose nodes are the agents by name', async () => {
    const { model, agents } = team(['plan', 'build']);
    const result = await graphWorkflowDescriptor.create(agents, { edges: [['plan', 'build']] }).run('go');

    expect(result.output).toBe('build says: plan says: go');
    expect(callsOf(model, 'build')[0]!.messages.at(-1)?.name).toBe('plan');
    expect(() => graphWorkflowDescriptor.create([agents[0]!, agents[0]!], {})).toThrow(/share a name/);
  });

  it('reports a bad flow the same way from worstCase and create', () => {
    const { agents } = team(['a', 'b']);
    expect(() => agentRearrangeDescriptor.worstCase!(agents, { flow: 'a -> z' })).toThrow(ConfigError);
    expect(() => agentRearrangeDescriptor.create(agents, { flow: 'a -> z' })).toThrow(/unknown member "z"/);
    expect(() => agentRearrangeDescriptor.create(agents, { flow: 'a -> H' })).toThrow(/no human function/);
  });
});
