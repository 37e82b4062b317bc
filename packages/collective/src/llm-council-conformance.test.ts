import { Agent } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { LLMCouncil } from './llm-council.js';
import { offeredIds } from './test-helpers.js';

topologyConformanceTests('LLMCouncil', {
  // Rankings must list every offered id once: answer the rank call with the ids the schema offers.
  model: () =>
    autoModel({
      override: (request) => {
        if (typeof request.toolChoice !== 'object') return undefined;
        return { text: '', toolCalls: [{ name: 'rank', arguments: { ranking: offeredIds(request) } }] };
      },
    }),
  create: (model, { tools, guardrails }) =>
    new LLMCouncil({
      ...guardrails,
      members: ['ada', 'bob', 'cy'].map((name) => new Agent({ name, model, tools })),
      chairman: new Agent({ name: 'chair', model }),
    }),
});
