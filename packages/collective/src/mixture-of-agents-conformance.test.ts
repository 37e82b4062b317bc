import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { MixtureOfAgents } from './mixture-of-agents.js';

topologyConformanceTests('MixtureOfAgents', {
  create: (model, { tools, guardrails }) =>
    new MixtureOfAgents({
      ...guardrails,
      agents: [new Agent({ name: 'ada', model, tools }), new Agent({ name: 'bob', model, tools })],
      aggregator: new Agent({ name: 'agg', model, tools }),
      layers: 2,
    }),
});
