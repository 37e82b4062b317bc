import { ConfigError, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { AutoSwarmBuilder } from './auto-swarm-builder.js';
import { MultiAgentRouter } from './multi-agent-router.js';

const multiAgentRouterConfig = z
  .object({
    /** The routing model (default: the first agent's). */
    model: z.string().min(1).optional(),
    maxRoutes: z.number().int().min(1).optional(),
    maxWorkers: z.number().int().min(1).optional(),
    instructions: z.string().optional(),
  })
  .strict();

/** MultiAgentRouter for a router or a spec: the agents are the members; config `{ model?, maxRoutes?, maxWorkers? }`. */
export const multiAgentRouterDescriptor: TopologyDescriptor<z.infer<typeof multiAgentRouterConfig>> = {
  type: 'MultiAgentRouter',
  description:
    'A model reads the task and sends it (or parts of it) to the one or few agents best suited, who work concurrently; use it when agents are specialists and a task needs only some of them.',
  minAgents: 1,
  configSchema: multiAgentRouterConfig,
  worstCase: (agents, config) => {
    const routes = config.maxRoutes ?? agents.length;
    const longest = Math.max(...agents.map((a) => a.maxTurns));
    // One routing call (plus its repairs), then each route's agent at its most turns.
    return { maxCalls: 3 + routes * longest };
  },
  create: (agents, config) => {
    const { model, ...rest } = multiAgentRouterConfig.parse(config ?? {});
    return new MultiAgentRouter({ agents, model: model ?? agents[0]!.model, ...rest });
  },
};

const autoSwarmBuilderConfig = z
  .object({
    maxAgents: z.number().int().min(1).optional(),
    maxRepairs: z.number().int().min(0).optional(),
  })
  .strict();

/**
 * AutoSwarmBuilder for a router or a spec: the first agent's model designs; the designed swarm may
 * use any of `topologies`.
 */
export function autoSwarmBuilderDescriptor(
  topologies: readonly TopologyDescriptor[],
): TopologyDescriptor<z.infer<typeof autoSwarmBuilderConfig>> {
  if (!Array.isArray(topologies) || topologies.length === 0) {
    throw new ConfigError('autoSwarmBuilderDescriptor: give the topologies a design may use.');
  }
  return {
    type: 'AutoSwarmBuilder',
    description:
      'A model designs a new team of agents and picks how they work together for the task, then runs it; use it when no fixed team fits.',
    minAgents: 1,
    maxAgents: 1,
    configSchema: autoSwarmBuilderConfig,
    worstCase: () => ({
      maxCalls: undefined,
      reason: 'the designed swarm is unknown until the design exists; preview the design with design(task)',
    }),
    create: (agents, config) =>
      new AutoSwarmBuilder({
        model: agents[0]!.model,
        topologies,
        ...autoSwarmBuilderConfig.parse(config ?? {}),
      }),
  };
}
