import { type Agent, ConfigError, outputTypes, type TopologyDescriptor, type WorstCase } from '@swarm/core';
import { z } from 'zod';
import { HierarchicalSwarm } from './hierarchical-swarm.js';

/** The JSON config a spec file may give a HierarchicalSwarm (every option but the members). */
export const hierarchicalSwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    director: z
      .string()
      .optional()
      .describe(
        'The name of the agent who directs (default the first), or a model string for a separate director.',
      ),
    maxLoops: z.number().int().min(1).optional(),
    parallel: z.boolean().optional(),
    maxWorkers: z.number().int().min(1).optional(),
    maxAgentRetries: z.number().int().min(0).optional(),
    directorFeedback: z.boolean().optional(),
    maxOrders: z.number().int().min(1).optional(),
    maxRepairs: z.number().int().min(0).optional(),
    outputType: z.enum(outputTypes).optional(),
  })
  .strict();

/** The config of `hierarchicalSwarmDescriptor`. */
export type HierarchicalSwarmConfig = z.infer<typeof hierarchicalSwarmConfigSchema>;

/** Lets a router build a HierarchicalSwarm from a list of agents without depending on this package. */
export const hierarchicalSwarmDescriptor: TopologyDescriptor<HierarchicalSwarmConfig> = {
  type: 'HierarchicalSwarm',
  description:
    'A director splits the task into orders for named specialist agents, with dependencies between orders; independent orders run in parallel, dependent ones get the outputs they need; the director can review the results for more rounds and writes the final answer. For tasks that break into distinct specialist parts, such as research, analysis and writing of a report.',
  minAgents: 2,
  configSchema: hierarchicalSwarmConfigSchema,
  create(agents, config = {}) {
    const { director, workers } = directorAndWorkers(agents, config.director);
    return new HierarchicalSwarm({ ...config, director, agents: workers });
  },
  worstCase(agents, config = {}): WorstCase {
    const { workers } = directorAndWorkers(agents, config.director);
    const loops = config.maxLoops ?? 1;
    const directorCalls = (config.maxRepairs ?? 2) + 1;
    const attempts = (config.maxAgentRetries ?? 1) + 1;
    const orderCalls = (config.maxOrders ?? 10) * attempts * Math.max(...workers.map((w) => w.maxTurns));
    const feedback = config.directorFeedback ? loops - 1 : 0;
    return { maxCalls: loops * (directorCalls + orderCalls) + feedback + 1 };
  },
};

// `director` names one of the agents (who then only directs) or is a model string; by default the first agent directs.
function directorAndWorkers(agents: readonly Agent[], director: string | undefined) {
  if (director === undefined) {
    const [first, ...rest] = agents;
    if (!first || rest.length === 0) {
      throw new ConfigError(
        'HierarchicalSwarm descriptor: give at least two agents (a director and a worker).',
      );
    }
    return { director: first as Agent | string, workers: rest };
  }
  const named = agents.find((a) => a.name === director);
  if (named) return { director: named as Agent | string, workers: agents.filter((a) => a !== named) };
  return { director: director as Agent | string, workers: [...agents] };
}
