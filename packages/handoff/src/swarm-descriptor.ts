import { type Agent, ConfigError, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import type { SwarmOptions } from './swarm-options.js';
import { swarmWorstCase } from './swarm-worst-case.js';
import { SwarmTeam } from './team.js';

/** What a router passes to build a swarm: every option but the agents (entryAgent defaults to the first). */
export type SwarmDescriptorConfig = Partial<Omit<SwarmOptions, 'agents'>>;

/** What a spec file may configure (plain JSON): every option but the agents and the session store. */
export const swarmConfigSchema = z.strictObject({
  name: z.string().min(1).optional(),
  entryAgent: z.string().min(1).optional(),
  handoffs: z.record(z.string(), z.array(z.string())).optional(),
  maxHandoffs: z.number().int().min(1).optional(),
  detectCycles: z.boolean().optional(),
  passFullHistory: z.boolean().optional(),
  resumeLastAgent: z.boolean().optional(),
});

/** Lets a router build `Team.swarm` from a list of agents, named by their `name`, without depending on this package. */
export const swarmDescriptor: TopologyDescriptor<SwarmDescriptorConfig> = {
  type: 'Swarm',
  description:
    'Peer agents with no manager pass the conversation to each other with handoff tools; whoever answers without handing off gives the answer. For exploratory, conversational flows whose shape cannot be specified in advance, such as a support desk triaging to specialists.',
  minAgents: 1,
  configSchema: swarmConfigSchema as z.ZodType<SwarmDescriptorConfig>,
  // At most 1 + maxHandoffs turns, each up to its agent's maxTurns calls (see swarmWorstCase).
  worstCase(agents, config = {}) {
    // Building the team checks the config the same way `create` does.
    build(agents, config);
    return swarmWorstCase({
      ...config,
      agents: new Map(agents.map((agent) => [agent.name, agent])),
      entryAgent: config.entryAgent ?? agents[0]?.name ?? '',
    });
  },
  create: (agents, config = {}) => build(agents, config),
};

function build(agents: readonly Agent<unknown>[], config: SwarmDescriptorConfig): SwarmTeam {
  return new SwarmTeam({
    ...config,
    agents: byName(agents),
    entryAgent: config.entryAgent ?? agents[0]?.name ?? '',
  });
}

function byName(agents: readonly Agent<unknown>[]): Record<string, Agent<unknown>> {
  const named = Object.fromEntries(agents.map((agent) => [agent.name, agent]));
  if (Object.keys(named).length !== agents.length) {
    throw new ConfigError(
      'Swarm descriptor: two agents share a name; swarm members are named by agent name.',
    );
  }
  return named;
}
