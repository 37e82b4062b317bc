import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { ForestSwarm } from './forest-swarm.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

topologyConformanceTests('ForestSwarm', {
  task: 'How do I file taxes for my Delaware corporation?',
  create: (model, { tools, guardrails }) =>
    new ForestSwarm({
      ...guardrails,
      name: 'finance',
      trees: [
        new Tree({
          name: 'Finance',
          agents: [
            new TreeAgent({
              name: 'Tax Expert',
              systemPrompt: 'Corporate taxation and tax filing.',
              model,
              tools,
            }),
            new TreeAgent({
              name: 'Stock Analyst',
              systemPrompt: 'Stock markets and portfolios.',
              model,
              tools,
            }),
          ],
        }),
      ],
    }),
});
