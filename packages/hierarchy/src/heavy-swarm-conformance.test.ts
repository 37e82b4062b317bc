import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { HeavySwarm } from './heavy-swarm.js';

topologyConformanceTests('HeavySwarm', {
  task: 'Should a small bakery open a second shop?',
  create: (model, { tools, guardrails }) =>
    new HeavySwarm({
      ...guardrails,
      model,
      agents: ['research', 'verification'].map((name) => new Agent({ name, model, tools })),
      maxLoops: 2,
    }),
});
