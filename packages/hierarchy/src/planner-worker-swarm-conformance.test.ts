import { Agent } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';
import { forced } from './worst-case.fixture.js';

topologyConformanceTests('PlannerWorkerSwarm', {
  task: 'Compare three note-taking apps.',
  create: (model, { tools, guardrails }) =>
    new PlannerWorkerSwarm({
      ...guardrails,
      planner: model,
      workers: [
        new Agent({ name: 'w1', instructions: 'Do the task.', model, tools }),
        new Agent({ name: 'w2', instructions: 'Do the task.', model, tools }),
      ],
      maxLoops: 2,
    }),
  model: () =>
    autoModel({
      override: (request) =>
        request.metadata?.purpose === 'planner'
          ? forced(request, {
              tasks: [
                { id: 't1', task: 'Look at app one.', priority: 5 },
                { id: 't2', task: 'Look at app two.', priority: 5 },
                { id: 't3', task: 'Compare them.', priority: 3, dependsOn: ['t1', 't2'] },
              ],
            })
          : undefined,
    }),
});
