import type { TopologyDescriptor } from '@swarm/core';
import { ForestSwarm, type ForestSwarmOptions } from './forest-swarm.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/** What a router passes to build a forest: every option but the trees, plus the name of the one tree. */
export type ForestDescriptorConfig = Partial<Omit<ForestSwarmOptions, 'trees'>> & { treeName?: string };

/**
 * Lets a router build a ForestSwarm from a flat list of agents (one tree, in the given order; each
 * agent's instructions are what tasks are routed by), without depending on this package.
 */
export const forestDescriptor: TopologyDescriptor<ForestDescriptorConfig> = {
  type: 'ForestSwarm',
  description:
    'Routes each task, without a model call, to the one specialist whose expertise (instructions and keywords) is most similar to it, and lets that agent answer alone. For many independent tasks over a fixed set of specialists, such as a help desk with a tax expert, a retirement planner and a stock analyst.',
  minAgents: 1,
  create(agents, config = {}) {
    const { treeName = 'default-tree', ...options } = config;
    const tree = new Tree({ name: treeName, agents: agents.map((agent) => new TreeAgent({ agent })) });
    return new ForestSwarm({ ...options, trees: [tree] });
  },
};
