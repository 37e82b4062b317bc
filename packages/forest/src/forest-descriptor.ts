import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { ForestSwarm, type ForestSwarmOptions } from './forest-swarm.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/** What a router passes to build a forest: every option but the trees, plus the name of the one tree. */
export type ForestDescriptorConfig = Partial<Omit<ForestSwarmOptions, 'trees'>> & { treeName?: string };

/** What a spec file may configure (plain JSON): no fallback agent, no logger, the embedder as a spec string. */
export const forestConfigSchema = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  treeName: z.string().min(1).optional(),
  embedder: z.string().min(1).optional(),
  routing: z.enum(['best', 'first']).optional(),
  threshold: z.union([z.number().min(-1).max(1), z.literal('auto')]).optional(),
  keywordWeight: z.number().min(0).max(1).optional(),
  senseCheck: z.boolean().optional(),
  maxBatchSize: z.number().int().min(1).optional(),
  cacheSize: z.number().int().min(1).optional(),
  verbose: z.boolean().optional(),
  conversationPath: z.string().min(1).optional(),
});

/**
 * Lets a router build a ForestSwarm from a flat list of agents (one tree, in the given order; each
 * agent's instructions are what tasks are routed by), without depending on this package.
 */
export const forestDescriptor: TopologyDescriptor<ForestDescriptorConfig> = {
  type: 'ForestSwarm',
  description:
    'Routes each task, without a model call, to the one specialist whose expertise (instructions and keywords) is most similar to it, and lets that agent answer alone. For many independent tasks over a fixed set of specialists, such as a help desk with a tax expert, a retirement planner and a stock analyst.',
  minAgents: 1,
  configSchema: forestConfigSchema as z.ZodType<ForestDescriptorConfig>,
  // One run is one task: routing makes no model call, then one agent's tool loop makes at most its
  // maxTurns calls; the preview is that of the agent with the most (any agent may be routed to).
  worstCase: (agents) => ({ maxCalls: Math.max(0, ...agents.map((agent) => agent.maxTurns)) }),
  create(agents, config = {}) {
    const { treeName = 'default-tree', ...options } = config;
    const tree = new Tree({ name: treeName, agents: agents.map((agent) => new TreeAgent({ agent })) });
    return new ForestSwarm({ ...options, trees: [tree] });
  },
};
