import { Agent } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { GroupChat } from './group-chat.js';

// Every bid wants the floor, so the chat runs to maxMessages.
const eagerBids = () =>
  autoModel({
    override: (request) =>
      typeof request.toolChoice === 'object'
        ? {
            text: '',
            toolCalls: [
              {
                name: 'respond',
                arguments: { score: 0.9, message: 'I have more to add.', intent: 'Add one more point.' },
              },
            ],
          }
        : undefined,
  });

topologyConformanceTests('GroupChat', {
  model: eagerBids,
  create: (model, { guardrails }) =>
    new GroupChat({
      ...guardrails,
      agents: ['ada', 'bob', 'cyrus'].map((name) => new Agent({ name, model })),
      maxMessages: 3,
    }),
  noTools:
    "with 'full' bidding every message is written in the bid, a structured call (the 'intent' suite below runs tools)",
  noFinalAnswer:
    'the output is the last message posted, and a speaker whose message is empty yields the floor to the next bidder (README)',
});

topologyConformanceTests("GroupChat with 'intent' bidding", {
  model: eagerBids,
  create: (model, { tools, guardrails }) =>
    new GroupChat({
      ...guardrails,
      agents: ['ada', 'bob', 'cyrus'].map((name) => new Agent({ name, model, tools })),
      bidding: 'intent',
      maxMessages: 3,
    }),
});
