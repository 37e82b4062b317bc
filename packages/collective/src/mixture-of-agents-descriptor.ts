import { isTopology, roleRefSchema, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { headAndWorkers, roleOf } from './descriptor-agents.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { agentRunCalls } from './options.js';

/**
 * The JSON config a spec file may give a MixtureOfAgents; `roles.aggregator` names one of the agents
 * (who then does not answer in the layers) or gives a model; by default a separate aggregator on `headModel`.
 */
export const mixtureOfAgentsConfigSchema = z.strictObject({
  name: z.string().optional(),
  roles: z.strictObject({ aggregator: roleRefSchema.optional() }).optional(),
  headModel: z.string().min(1).optional(),
  /** Same as `roles.aggregator` (kept for older specs). */
  aggregator: z.string().optional(),
  layers: z.number().int().min(1).optional(),
  maxWorkers: z.number().int().min(1).optional(),
});

/** What a router passes to build a MixtureOfAgents. */
export type MixtureOfAgentsDescriptorConfig = z.infer<typeof mixtureOfAgentsConfigSchema>;

/**
 * Lets a router build a MixtureOfAgents as swarms does: every agent answers in the layers, and a
 * separate aggregator on the first agent's model (or `headModel`) answers, unless `roles` names one.
 */
export const mixtureOfAgentsDescriptor: TopologyDescriptor<MixtureOfAgentsDescriptorConfig> = {
  type: 'MixtureOfAgents',
  description:
    "Several agents (ideally on different models) answer the same task independently, in layers that each refine the previous layer's answers; an aggregator then answers from the last layer. For high-stakes questions that gain from several independent views fused into one answer.",
  minAgents: 1,
  configSchema: mixtureOfAgentsConfigSchema,
  worstCase(agents, config = {}) {
    const { head, workers } = roles(agents, config);
    if (isTopology(head)) return { maxCalls: undefined, reason: 'the aggregator is a topology' };
    const layer = workers.reduce((sum, agent) => sum + agentRunCalls(agent), 0);
    return { maxCalls: (config.layers ?? 3) * layer + agentRunCalls(head) };
  },
  create(agents, config = {}) {
    const { aggregator: _a, roles: _r, headModel: _h, ...options } = config;
    const { head, workers } = roles(agents, config);
    return new MixtureOfAgents({ ...options, agents: workers, aggregator: head });
  },
};

const aggregatorInstructions =
  'You aggregate the answers of several experts into one best answer to the task: keep what is right, resolve disagreements, and drop what is wrong.';

function roles(agents: Parameters<typeof headAndWorkers>[2], config: MixtureOfAgentsDescriptorConfig) {
  const given = roleOf('MixtureOfAgents', 'aggregator', config.roles?.aggregator, config.aggregator);
  return headAndWorkers(
    'MixtureOfAgents',
    'aggregator',
    agents,
    given,
    config.headModel,
    aggregatorInstructions,
  );
}
