import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { CouncilAsAJudge } from './council-as-a-judge.js';

topologyConformanceTests('CouncilAsAJudge', {
  task: 'Question: what is 2 + 2? Response: 5.',
  create: (model, { tools, guardrails }) =>
    new CouncilAsAJudge({
      ...guardrails,
      model,
      dimensions: ['accuracy', 'conciseness', 'helpfulness'],
      aggregator: new Agent({ name: 'aggregator', model, tools }),
    }),
});
