import { ConfigError, type TopologyDescriptor } from '@swarm/core';
import type { TreeOfThoughtsOptions } from './options.js';
import { TreeOfThoughts } from './tree-of-thoughts.js';

/** What a router passes to build a search: every option but the model, which comes from the agent. */
export type TreeOfThoughtsDescriptorConfig = Omit<TreeOfThoughtsOptions, 'model'>;

/**
 * Lets a router build a Tree of Thoughts from one agent, without depending on this package: the
 * agent's model runs every call, and its instructions (when set) become the search's system prompt.
 */
export const treeOfThoughtsDescriptor: TopologyDescriptor<TreeOfThoughtsDescriptorConfig> = {
  type: 'TreeOfThoughts',
  description:
    'One model searches a tree of reasoning steps: it proposes candidate next steps, scores and prunes them, and searches breadth- or depth-first before answering from the best path. For tasks that break into checkable steps where one wrong early step ruins the answer: arithmetic, proofs, logic puzzles, planning under constraints. Costs many model calls per task.',
  minAgents: 1,
  maxAgents: 1,
  create(agents, config = {}) {
    const [agent] = agents;
    if (!agent || agents.length !== 1) {
      throw new ConfigError(`TreeOfThoughts descriptor: give exactly one agent (got ${agents.length}).`);
    }
    return new TreeOfThoughts({
      ...config,
      model: agent.model,
      ...(agent.instructions !== undefined &&
        config.systemPrompt === undefined && { systemPrompt: agent.instructions }),
    }).asTopology();
  },
};
