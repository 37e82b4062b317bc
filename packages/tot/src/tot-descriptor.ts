import { ConfigError, type OutputType, outputTypes, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import type { TreeOfThoughtsOptions } from './options.js';
import { treeOfThoughtsWorstCase } from './tot-worst-case.js';
import { TreeOfThoughts } from './tree-of-thoughts.js';

/** What a router passes to build a search: every option but the model, which comes from the agent. */
export type TreeOfThoughtsDescriptorConfig = Omit<TreeOfThoughtsOptions, 'model'>;

const count = z.number().int().min(1);

/** What a spec file may configure (plain JSON): every option but the model and programmatic strategies. */
export const treeOfThoughtsConfigSchema = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  systemPrompt: z.string().optional(),
  searchAlgorithm: z.enum(['bfs', 'dfs']).optional(),
  generationStrategy: z.enum(['propose', 'sample']).optional(),
  evaluationStrategy: z.enum(['value', 'vote']).optional(),
  answerStrategy: z.literal('model').optional(),
  numThoughts: count.optional(),
  breadth: count.optional(),
  maxDepth: count.optional(),
  nEvaluateSamples: count.optional(),
  valueThreshold: z.number().min(0).max(1).optional(),
  maxExpansions: count.optional(),
  thoughtDescription: z.string().optional(),
  evaluationCriteria: z.string().optional(),
  temperature: z.number().min(0).optional(),
  maxWorkers: count.optional(),
  outputType: z.enum(outputTypes as [OutputType, ...OutputType[]]).optional(),
  verbose: z.boolean().optional(),
  agentOptions: z
    .strictObject({ maxTokens: count.optional(), maxRepairs: z.number().int().min(0).optional() })
    .optional(),
});

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
  configSchema: treeOfThoughtsConfigSchema as z.ZodType<TreeOfThoughtsDescriptorConfig>,
  // The seed's Cost table: the calls of one search, whatever the agent (its model makes them all).
  worstCase: (_agents, config = {}) => treeOfThoughtsWorstCase(config),
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
