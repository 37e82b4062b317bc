import {
  type Agent,
  ConfigError,
  outputTypes,
  roleRefSchema,
  splitHead,
  type TopologyDescriptor,
  type WorstCase,
} from '@swarm/core';
import { z } from 'zod';
import { headOf, roleOf } from './descriptor-roles.js';
import { headCalls } from './head.js';
import { HierarchicalSwarm } from './hierarchical-swarm.js';

/** The JSON config a spec file may give a HierarchicalSwarm (every option but the members). */
export const hierarchicalSwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    roles: z
      .strictObject({ director: roleRefSchema.optional() })
      .optional()
      .describe(
        'director: the name of the agent who directs (and then does not work), or a model for a separate director. Default: a separate director on headModel, every agent a worker.',
      ),
    headModel: z
      .string()
      .min(1)
      .optional()
      .describe("The separate director's model (default the first agent's)."),
    director: z.string().optional().describe('Same as roles.director (kept for older specs).'),
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
  minAgents: 1,
  configSchema: hierarchicalSwarmConfigSchema,
  create(agents, config = {}) {
    const { director, workers } = directorAndWorkers(agents, config);
    const { roles: _r, headModel: _h, ...options } = config;
    return new HierarchicalSwarm({ ...options, director, agents: workers });
  },
  worstCase(agents, config = {}): WorstCase {
    const { director, workers } = directorAndWorkers(agents, config);
    const loops = config.maxLoops ?? 1;
    const head = headCalls(director, config.maxRepairs);
    const directorCalls = head.typed;
    const attempts = (config.maxAgentRetries ?? 1) + 1;
    const orderCalls = (config.maxOrders ?? 10) * attempts * Math.max(...workers.map((w) => w.maxTurns));
    const feedback = config.directorFeedback ? (loops - 1) * head.prose : 0;
    return { maxCalls: loops * (directorCalls + orderCalls) + feedback + head.prose };
  },
};

// As swarms: every agent works and a separate director runs on headModel (default the first
// agent's model), unless roles.director names an agent (who then only directs) or gives a model.
function directorAndWorkers(agents: readonly Agent<unknown>[], config: HierarchicalSwarmConfig) {
  const given = roleOf('HierarchicalSwarm', 'director', config.roles?.director, config.director);
  const { head, workers } = splitHead(
    'HierarchicalSwarm descriptor',
    'director',
    agents,
    given,
    config.headModel,
  );
  if (workers.length === 0) {
    throw new ConfigError('HierarchicalSwarm descriptor: give at least one worker besides the director.');
  }
  return { director: headOf('HierarchicalSwarm', 'director', head), workers };
}
