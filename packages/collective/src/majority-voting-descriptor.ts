import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { splitRole } from './descriptor-agents.js';
import { MajorityVoting } from './majority-voting.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a MajorityVoting; `consensusAgent` names one of the agents (it does not vote). */
export const majorityVotingConfigSchema = z.strictObject({
  name: z.string().optional(),
  mode: z.enum(['tally', 'consensus']).optional(),
  maxLoops: z.number().int().min(1).optional(),
  consensusAgent: z.string().optional(),
  maxWorkers: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build a MajorityVoting. */
export type MajorityVotingDescriptorConfig = z.infer<typeof majorityVotingConfigSchema>;

/** Lets a router build a MajorityVoting: every agent votes, except the consensus agent when one is named. */
export const majorityVotingDescriptor: TopologyDescriptor<MajorityVotingDescriptorConfig> = {
  type: 'MajorityVoting',
  description:
    'Several agents answer the same question independently with a short answer, a confidence and their reasoning; the answers are counted and the most frequent wins, optionally written up by a consensus agent. For questions with one short right answer (a number, a name, yes or no) where independent votes cancel out individual mistakes.',
  minAgents: 1,
  configSchema: majorityVotingConfigSchema,
  worstCase(agents, config = {}) {
    const { voters, consensus } = roles(agents, config);
    if (config.mode === 'consensus') {
      // Each round: every voter's run, then the consensus agent's (built-in: one call).
      const round =
        voters.reduce((sum, v) => sum + agentRunCalls(v), 0) + (consensus ? agentRunCalls(consensus) : 1);
      return { maxCalls: (config.maxLoops ?? 1) * round };
    }
    const perVote = (config.maxRepairs ?? 2) + 1;
    return { maxCalls: voters.length * perVote + (consensus ? agentRunCalls(consensus) : 0) };
  },
  create(agents, config = {}) {
    const { consensusAgent: _named, ...options } = config;
    const { voters, consensus } = roles(agents, config);
    return new MajorityVoting({
      ...options,
      agents: voters,
      ...(consensus && { consensusAgent: consensus }),
    });
  },
};

function roles(agents: Parameters<typeof splitRole>[2], config: MajorityVotingDescriptorConfig) {
  if (config.consensusAgent === undefined) return { voters: [...agents], consensus: undefined };
  const { role, rest } = splitRole('MajorityVoting', 'consensusAgent', agents, config.consensusAgent);
  return { voters: rest, consensus: role };
}
