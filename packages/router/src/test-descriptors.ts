import {
  type Agent,
  BaseTopology,
  ConfigError,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyDescriptor,
  type TopologyResult,
} from '@swarm/core';
import { z } from 'zod';

/** The seed's 16 named types (plus 'auto', which the router handles itself) and ours. */
export const seedTypes = [
  'SequentialWorkflow',
  'ConcurrentWorkflow',
  'AgentRearrange',
  'MixtureOfAgents',
  'HierarchicalSwarm',
  'GroupChat',
  'MajorityVoting',
  'CouncilAsAJudge',
  'HeavySwarm',
  'MultiAgentRouter',
  'DebateWithJudge',
  'RoundRobin',
  'PlannerWorkerSwarm',
  'BatchedGridWorkflow',
  'LLMCouncil',
  'AutoSwarmBuilder',
] as const;
export const ourTypes = [
  'ForestSwarm',
  'TreeOfThoughts',
  'CoordinatedTreeOfThoughts',
  'Swarm',
  'GraphWorkflow',
] as const;

/** A stand-in topology: each agent answers in turn, prefixed by the type, so a test sees which ran. */
class StandIn extends BaseTopology {
  constructor(
    readonly type: string,
    readonly agents: readonly Agent<unknown>[],
    readonly prefix: string,
  ) {
    super();
  }
  readonly name = 'stand-in';
  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async (context) => {
      let output = task;
      for (const agent of this.agents) output = (await runMember(agent, output, context)).output;
      return { output: `${this.prefix}${output}` };
    });
  }
}

/** A descriptor of a stand-in topology that records every `create` call. */
export function standInDescriptor(
  type: string,
  limits: { minAgents?: number; maxAgents?: number } = {},
): TopologyDescriptor<{ prefix?: string }> & {
  created: { agents: readonly Agent<unknown>[]; config: unknown }[];
} {
  const created: { agents: readonly Agent<unknown>[]; config: unknown }[] = [];
  const configSchema = z.object({ prefix: z.string().optional(), flow: z.string().optional() }).strict();
  return {
    type,
    description: `Stand-in for ${type}.`,
    ...limits,
    configSchema,
    created,
    create(agents, config) {
      created.push({ agents, config });
      const { flow } = config as { flow?: string };
      if (flow !== undefined && !agents.some((a) => a.name === flow)) {
        throw new ConfigError(`flow names an unknown agent "${flow}".`);
      }
      return new StandIn(type, agents, config.prefix ?? `[${type}] `);
    },
  };
}
