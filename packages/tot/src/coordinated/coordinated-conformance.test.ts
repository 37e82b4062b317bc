import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { CoordinatedTreeOfThoughts } from './coordinated-tree-of-thoughts.js';

topologyConformanceTests('CoordinatedTreeOfThoughts', {
  task: 'How could a small town cut its carbon emissions by half?',
  create: (model, { guardrails }) =>
    new CoordinatedTreeOfThoughts({ ...guardrails, model, maxDepth: 2, initialThoughts: 2 }),
  noTools: 'its roles make structured calls of one model; no member runs a tool loop',
});
