import { isTopology, roleRefSchema, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { headAndWorkers, roleOf } from './descriptor-agents.js';
import { LLMCouncil } from './llm-council.js';
import { agentRunCalls } from './options.js';

/**
 * The JSON config a spec file may give an LLMCouncil; `roles.chairman` names one of the agents (who
 * then does not answer) or gives a model; by default a separate chairman on `headModel`.
 */
export const llmCouncilConfigSchema = z.strictObject({
  name: z.string().optional(),
  roles: z.strictObject({ chairman: roleRefSchema.optional() }).optional(),
  headModel: z.string().min(1).optional(),
  /** Same as `roles.chairman` (kept for older specs). */
  chairman: z.string().optional(),
  maxWorkers: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build an LLMCouncil. */
export type LLMCouncilDescriptorConfig = z.infer<typeof llmCouncilConfigSchema>;

/**
 * Lets a router build an LLMCouncil as swarms does: every agent is a council member, and a separate
 * chairman on the first agent's model (or `headModel`) writes the answer, unless `roles` names one.
 */
export const llmCouncilDescriptor: TopologyDescriptor<LLMCouncilDescriptorConfig> = {
  type: 'LLMCouncil',
  description:
    "Council members (ideally on different models) each answer, then rank each other's anonymized answers; the ranks are aggregated and a chairman, who sees only anonymous ids and the ranking, writes the final answer. For open questions where peer review of several full answers beats a vote on one short answer.",
  minAgents: 3,
  configSchema: llmCouncilConfigSchema,
  worstCase(agents, config = {}) {
    const { head, workers } = roles(agents, config);
    if (isTopology(head)) return { maxCalls: undefined, reason: 'the chairman is a topology' };
    const perRanking = (config.maxRepairs ?? 2) + 1;
    const members = workers.reduce((sum, agent) => sum + agentRunCalls(agent) + perRanking, 0);
    return { maxCalls: members + agentRunCalls(head) };
  },
  create(agents, config = {}) {
    const { chairman: _c, roles: _r, headModel: _h, ...options } = config;
    const { head, workers } = roles(agents, config);
    return new LLMCouncil({ ...options, members: workers, chairman: head });
  },
};

const chairmanInstructions =
  'You chair a council of experts. From their anonymous answers and how they ranked each other, write the best final answer to the task.';

function roles(agents: Parameters<typeof headAndWorkers>[2], config: LLMCouncilDescriptorConfig) {
  const given = roleOf('LLMCouncil', 'chairman', config.roles?.chairman, config.chairman);
  return headAndWorkers('LLMCouncil', 'chairman', agents, given, config.headModel, chairmanInstructions);
}
