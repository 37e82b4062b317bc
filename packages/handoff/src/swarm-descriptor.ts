import { ConfigError, type TopologyDescriptor } from '@swarm/core';
import type { SwarmOptions } from './swarm-options.js';
import { SwarmTeam } from './team.js';

/** What a router passes to build a swarm: every option but the agents (entryAgent defaults to the first). */
export type SwarmDescriptorConfig = Partial<Omit<SwarmOptions, 'agents'>>;

/** Lets a router build `Team.swarm` from a list of agents, named by their `name`, without depending on this package. */
export const swarmDescriptor: TopologyDescriptor<SwarmDescriptorConfig> = {
  type: 'Swarm',
  description:
    'Peer agents with no manager pass the conversation to each other with handoff tools; whoever answers without handing off gives the answer. For exploratory, conversational flows whose shape cannot be specified in advance, such as a support desk triaging to specialists.',
  minAgents: 1,
  create(agents, config = {}) {
    const byName = Object.fromEntries(agents.map((agent) => [agent.name, agent]));
    if (Object.keys(byName).length !== agents.length) {
      throw new ConfigError(
        'Swarm descriptor: two agents share a name; swarm members are named by agent name.',
      );
    }
    return new SwarmTeam({
      ...config,
      agents: byName,
      entryAgent: config.entryAgent ?? agents[0]?.name ?? '',
    });
  },
};
