import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { DebateWithJudge } from './debate-with-judge.js';

topologyConformanceTests('DebateWithJudge', {
  task: 'Remote work is better than office work.',
  create: (model) =>
    new DebateWithJudge({
      pro: new Agent({ name: 'pro', model }),
      con: new Agent({ name: 'con', model }),
      judge: new Agent({ name: 'judge', model }),
      maxLoops: 2,
    }),
});
