import { Agent } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { HierarchicalSwarm } from './hierarchical-swarm.js';
import { forced } from './worst-case.fixture.js';

topologyConformanceTests('HierarchicalSwarm', {
  task: 'Write a short market brief on e-bikes.',
  create: (model, { tools, guardrails }) =>
    new HierarchicalSwarm({
      ...guardrails,
      director: model,
      agents: [
        new Agent({ name: 'researcher', instructions: 'Find facts.', model, tools }),
        new Agent({ name: 'writer', instructions: 'Write.', model, tools }),
      ],
      maxLoops: 2,
      directorFeedback: true,
    }),
  model: () =>
    autoModel({
      override: (request) =>
        request.metadata?.purpose === 'director'
          ? forced(request, {
              plan: 'Research, then write.',
              orders: [
                { id: 'o1', agentName: 'researcher', task: 'Find facts.' },
                { id: 'o2', agentName: 'writer', task: 'Write the brief.', dependsOn: ['o1'] },
              ],
              done: false,
            })
          : undefined,
    }),
});
