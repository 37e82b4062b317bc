import { ConfigError, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { CouncilAsAJudge } from './council-as-a-judge.js';
import { resolveDimensions } from './dimensions.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a CouncilAsAJudge. */
export const councilAsAJudgeConfigSchema = z.strictObject({
  name: z.string().optional(),
  dimensions: z
    .array(z.union([z.string().min(1), z.strictObject({ name: z.string().min(1), description: z.string() })]))
    .min(1)
    .optional(),
  maxWorkers: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build a CouncilAsAJudge. */
export type CouncilAsAJudgeDescriptorConfig = z.infer<typeof councilAsAJudgeConfigSchema>;

/**
 * Lets a router build a CouncilAsAJudge: the first agent's model runs one built-in judge per
 * dimension; the second agent (else the first) writes the report.
 */
export const councilAsAJudgeDescriptor: TopologyDescriptor<CouncilAsAJudgeDescriptorConfig> = {
  type: 'CouncilAsAJudge',
  description:
    'A council of judges evaluates a given response: one judge per dimension (accuracy, helpfulness, harmlessness, coherence, conciseness, instruction adherence, or your own) scores it from 0 to 10 with a rationale, and an aggregator writes the evaluation report. For grading or reviewing an answer, not for producing one; the task holds the question and the response.',
  minAgents: 1,
  maxAgents: 2,
  configSchema: councilAsAJudgeConfigSchema,
  worstCase(agents, config = {}) {
    const dimensions = resolveDimensions('CouncilAsAJudge', config.dimensions).length;
    const aggregator = agents[1] ?? agents[0];
    return {
      maxCalls: dimensions * ((config.maxRepairs ?? 2) + 1) + (aggregator ? agentRunCalls(aggregator) : 0),
    };
  },
  create(agents, config = {}) {
    const [judge, aggregator = judge] = agents;
    if (!judge) throw new ConfigError('CouncilAsAJudge descriptor: give one or two agents (got 0).');
    return new CouncilAsAJudge({ ...config, model: judge.model, ...(aggregator && { aggregator }) });
  },
};
