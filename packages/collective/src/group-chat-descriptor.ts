import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { GroupChat } from './group-chat.js';
import { agentRunCalls } from './options.js';

/** The JSON config a spec file may give a GroupChat. */
export const groupChatConfigSchema = z.strictObject({
  name: z.string().optional(),
  threshold: z.number().min(0).lt(1).optional(),
  recencyPenalty: z.number().min(0).max(1).optional(),
  recencyWindow: z.number().int().min(0).optional(),
  maxMessages: z.number().int().min(1).optional(),
  bidding: z.enum(['full', 'intent']).optional(),
  promptBias: z.enum(['engage', 'neutral', 'reserved']).optional(),
  maxWorkers: z.number().int().min(1).optional(),
  maxRepairs: z.number().int().min(0).optional(),
});

/** What a router passes to build a GroupChat. */
export type GroupChatDescriptorConfig = z.infer<typeof groupChatConfigSchema>;

/** Lets a router build a GroupChat: every agent is a participant. */
export const groupChatDescriptor: TopologyDescriptor<GroupChatDescriptorConfig> = {
  type: 'GroupChat',
  description:
    'A free discussion with no fixed turns: each round every agent privately bids for the floor with a score and a message, the single highest bid above a threshold is posted (recent speakers are penalized), and the chat ends when nobody bids high enough. For brainstorming and open discussion among peers with different expertise.',
  minAgents: 2,
  configSchema: groupChatConfigSchema,
  worstCase(agents, config = {}) {
    const perBid = (config.maxRepairs ?? 2) + 1;
    // In intent bidding a winner whose message fails yields to the next bidder: at worst all write.
    const writes = config.bidding === 'intent' ? agents.reduce((sum, a) => sum + agentRunCalls(a), 0) : 0;
    return { maxCalls: (config.maxMessages ?? 12) * (agents.length * perBid + writes) };
  },
  create(agents, config = {}) {
    return new GroupChat({ ...config, agents });
  },
};
