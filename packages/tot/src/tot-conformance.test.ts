import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { TreeOfThoughts } from './tree-of-thoughts.js';

topologyConformanceTests('TreeOfThoughts', {
  task: 'Use 4 9 10 13 to make 24.',
  create: (model, { guardrails }) =>
    new TreeOfThoughts({ ...guardrails, model, numThoughts: 2, maxDepth: 2, breadth: 1 }).asTopology(),
  noTools: 'its calls are structured steps and ratings of one model; no member runs a tool loop',
  noFinalAnswer: 'its answer is written by a structured call, validated by its schema, not free prose',
  noAttachments:
    'its prompts are built from the search state, not from agent turns; attachments are not passed yet',
});
