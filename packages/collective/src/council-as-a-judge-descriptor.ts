import {
  ConfigError,
  isMember,
  isTopology,
  roleRefSchema,
  splitHead,
  type TopologyDescriptor,
} from '@swarm/core';
import { z } from 'zod';
import { CouncilAsAJudge } from './council-as-a-judge.js';
import { headAndWorkers } from './descriptor-agents.js';
import { resolveDimensions } from './dimensions.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a CouncilAsAJudge. */
export const councilAsAJudgeConfigSchema = z.strictObject({
  name: z.string().optional(),
  /** judge: whose model runs the built-in judges; aggregator: who writes the report. Each an agent's name or a model (default `headModel`). */
  roles: z.strictObject({ judge: roleRefSchema.optional(), aggregator: roleRefSchema.optional() }).optional(),
  headModel: z.string().min(1).optional(),
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
 * Lets a router build a CouncilAsAJudge as swarms does: it builds its own judges, one per dimension,
 * and its aggregator, on the first agent's model (or `headModel`); the agents are not judges. `roles`
 * may give the judges' model and the aggregator (an agent's name, an Agent or a model).
 */
export const councilAsAJudgeDescriptor: TopologyDescriptor<CouncilAsAJudgeDescriptorConfig> = {
  type: 'CouncilAsAJudge',
  description:
    'A council of judges evaluates a given response: one judge per dimension (accuracy, helpfulness, harmlessness, coherence, conciseness, instruction adherence, or your own) scores it from 0 to 10 with a rationale, and an aggregator writes the evaluation report. For grading or reviewing an answer, not for producing one; the task holds the question and the response.',
  minAgents: 1,
  configSchema: councilAsAJudgeConfigSchema,
  worstCase(agents, config = {}) {
    const dimensions = resolveDimensions('CouncilAsAJudge', config.dimensions).length;
    const { aggregator } = roles(agents, config);
    if (isTopology(aggregator)) return { maxCalls: undefined, reason: 'the aggregator is a topology' };
    return { maxCalls: dimensions * ((config.maxRepairs ?? 2) + 1) + agentRunCalls(aggregator) };
  },
  create(agents, config = {}) {
    const { roles: _r, headModel: _h, ...options } = config;
    const { model, aggregator } = roles(agents, config);
    return new CouncilAsAJudge({ ...options, model, aggregator });
  },
};

const aggregatorInstructions =
  'You chair a council of judges. From their scores and rationales, write a clear evaluation report: an overall assessment, the strengths, the weaknesses, and concrete improvements.';

// The judges' model and the aggregator, each from roles or else on headModel (default the first agent's model).
function roles(agents: Parameters<typeof headAndWorkers>[2], config: CouncilAsAJudgeDescriptorConfig) {
  const owner = 'CouncilAsAJudge descriptor';
  const judge = splitHead(owner, 'judge', agents, config.roles?.judge, config.headModel).head;
  if (isTopology(judge)) {
    throw new ConfigError(
      `${owner}: roles.judge is a Topology, but a judge returns a structured score: give an Agent's name, an Agent or a model.`,
    );
  }
  const model = isMember(judge) ? judge.model : judge;
  const { head: aggregator } = headAndWorkers(
    'CouncilAsAJudge',
    'aggregator',
    agents,
    config.roles?.aggregator ?? model,
    undefined,
    aggregatorInstructions,
  );
  return { model, aggregator };
}
