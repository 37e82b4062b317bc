import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { MixtureOfAgents } from './mixture-of-agents.js';

topologyConformanceTests('MixtureOfAgents', {
  create: (model) =>
    new MixtureOfAgents({
      agents: [new Agent({ name: 'ada', model }), new Agent({ name: 'bob', model })],
      aggregator: new Agent({ name: 'agg', model }),
      layers: 2,
    }),
});
