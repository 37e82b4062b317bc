import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { MajorityVoting } from './majority-voting.js';

topologyConformanceTests('MajorityVoting', {
  create: (model) =>
    new MajorityVoting({
      agents: [
        new Agent({ name: 'a', model }),
        new Agent({ name: 'b', model }),
        new Agent({ name: 'c', model }),
      ],
      consensusAgent: new Agent({ name: 'writer', model }),
    }),
});
