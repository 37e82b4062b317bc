import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { MajorityVoting } from './majority-voting.js';

topologyConformanceTests('MajorityVoting', {
  create: (model, { tools, guardrails }) =>
    new MajorityVoting({
      ...guardrails,
      agents: [
        new Agent({ name: 'a', model, tools }),
        new Agent({ name: 'b', model, tools }),
        new Agent({ name: 'c', model, tools }),
      ],
      consensusAgent: new Agent({ name: 'writer', model, tools }),
    }),
});
