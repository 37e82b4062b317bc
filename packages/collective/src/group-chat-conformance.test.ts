import { Agent } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { GroupChat } from './group-chat.js';

topologyConformanceTests('GroupChat', {
  // Every bid wants the floor, so the chat runs to maxMessages.
  model: () =>
    autoModel({
      override: (request) =>
        typeof request.toolChoice === 'object'
          ? {
              text: '',
              toolCalls: [{ name: 'respond', arguments: { score: 0.9, message: 'I have more to add.' } }],
            }
          : undefined,
    }),
  create: (model) =>
    new GroupChat({
      agents: ['ada', 'bob', 'cyrus'].map((name) => new Agent({ name, model })),
      maxMessages: 3,
    }),
});
