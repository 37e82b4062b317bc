import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { splitRole } from './descriptor-agents.js';
import { LLMCouncil } from './llm-council.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give an LLMCouncil; `chairman` names one of the agents (default the last). */
export const llmCouncilConfigSchema = z.strictObject({
  name: z.string().optional(),
  chairman: z.string().optional(),
  maxWorkers: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build an LLMCouncil. */
export type LLMCouncilDescriptorConfig = z.infer<typeof llmCouncilConfigSchema>;

/** Lets a router build an LLMCouncil: the chairman by name (default the last agent), the rest as members. */
export const llmCouncilDescriptor: TopologyDescriptor<LLMCouncilDescriptorConfig> = {
  type: 'LLMCouncil',
  description:
    "Council members (ideally on different models) each answer, then rank each other's anonymized answers; the ranks are aggregated and a chairman, who sees only anonymous ids and the ranking, writes the final answer. For open questions where peer review of several full answers beats a vote on one short answer.",
  minAgents: 4,
  configSchema: llmCouncilConfigSchema,
  worstCase(agents, config = {}) {
    const { role, rest } = splitRole('LLMCouncil', 'chairman', agents, config.chairman);
    const perRanking = (config.maxRepairs ?? 2) + 1;
    const members = rest.reduce((sum, agent) => sum + agentRunCalls(agent) + perRanking, 0);
    return { maxCalls: members + agentRunCalls(role) };
  },
  create(agents, config = {}) {
    const { chairman, ...options } = config;
    const { role, rest } = splitRole('LLMCouncil', 'chairman', agents, chairman);
    return new LLMCouncil({ ...options, members: rest, chairman: role });
  },
};
