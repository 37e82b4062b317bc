import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { splitRole } from './descriptor-agents.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a MixtureOfAgents; `aggregator` names one of the agents (default the last). */
export const mixtureOfAgentsConfigSchema = z.strictObject({
  name: z.string().optional(),
  aggregator: z.string().optional(),
  layers: z.number().int().min(1).optional(),
  maxWorkers: z.number().int().min(1).optional(),
});

/** What a router passes to build a MixtureOfAgents. */
export type MixtureOfAgentsDescriptorConfig = z.infer<typeof mixtureOfAgentsConfigSchema>;

/** Lets a router build a MixtureOfAgents from a flat agent list: the aggregator by name (default the last), the rest as workers. */
export const mixtureOfAgentsDescriptor: TopologyDescriptor<MixtureOfAgentsDescriptorConfig> = {
  type: 'MixtureOfAgents',
  description:
    "Several agents (ideally on different models) answer the same task independently, in layers that each refine the previous layer's answers; an aggregator then answers from the last layer. For high-stakes questions that gain from several independent views fused into one answer.",
  minAgents: 2,
  configSchema: mixtureOfAgentsConfigSchema,
  worstCase(agents, config = {}) {
    const { role, rest } = splitRole('MixtureOfAgents', 'aggregator', agents, config.aggregator);
    const layer = rest.reduce((sum, agent) => sum + agentRunCalls(agent), 0);
    return { maxCalls: (config.layers ?? 3) * layer + agentRunCalls(role) };
  },
  create(agents, config = {}) {
    const { aggregator, ...options } = config;
    const { role, rest } = splitRole('MixtureOfAgents', 'aggregator', agents, aggregator);
    return new MixtureOfAgents({ ...options, agents: rest, aggregator: role });
  },
};
