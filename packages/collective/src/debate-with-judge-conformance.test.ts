import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { DebateWithJudge } from './debate-with-judge.js';

topologyConformanceTests('DebateWithJudge', {
  task: 'Remote work is better than office work.',
  create: (model, { tools, guardrails }) =>
    new DebateWithJudge({
      ...guardrails,
      pro: new Agent({ name: 'pro', model, tools }),
      con: new Agent({ name: 'con', model, tools }),
      judge: new Agent({ name: 'judge', model }),
      maxLoops: 2,
    }),
  noFinalAnswer:
    "the answer is the synthesis in the judge's structured verdict, not prose (an empty synthesis is tested in debate-with-judge.test.ts)",
});
