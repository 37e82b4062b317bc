import { ConfigError, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { DebateWithJudge } from './debate-with-judge.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a DebateWithJudge. */
export const debateWithJudgeConfigSchema = z.strictObject({
  name: z.string().optional(),
  maxLoops: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build a DebateWithJudge. */
export type DebateWithJudgeDescriptorConfig = z.infer<typeof debateWithJudgeConfigSchema>;

/** Lets a router build a DebateWithJudge from exactly three agents, in order: pro, con, judge. */
export const debateWithJudgeDescriptor: TopologyDescriptor<DebateWithJudgeDescriptorConfig> = {
  type: 'DebateWithJudge',
  description:
    'Two agents argue for and against a fixed proposition for a few rounds; after each round a judge gives a structured verdict (winner, synthesis, confidence) and may stop once the debate has converged. For contested decisions and claims where stress-testing both sides gives a more balanced answer. Agents in order: pro, con, judge.',
  minAgents: 3,
  maxAgents: 3,
  configSchema: debateWithJudgeConfigSchema,
  worstCase(agents, config = {}) {
    const [pro, con] = roles(agents);
    return {
      maxCalls:
        (config.maxLoops ?? 3) * (agentRunCalls(pro) + agentRunCalls(con) + (config.maxRepairs ?? 2) + 1),
    };
  },
  create(agents, config = {}) {
    const [pro, con, judge] = roles(agents);
    return new DebateWithJudge({ ...config, pro, con, judge });
  },
};

function roles(agents: Parameters<NonNullable<TopologyDescriptor['worstCase']>>[0]) {
  const [pro, con, judge] = agents;
  if (!pro || !con || !judge || agents.length !== 3) {
    throw new ConfigError(
      `DebateWithJudge descriptor: give exactly three agents: pro, con, judge (got ${agents.length}).`,
    );
  }
  return [pro, con, judge] as const;
}
