import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { Team } from './team.js';

topologyConformanceTests('Team.swarm', {
  task: 'I was charged twice.',
  create: (model, { tools, guardrails }) =>
    Team.swarm({
      ...guardrails,
      agents: {
        triage: new Agent({ name: 'triage', instructions: 'Route the customer.', model, tools }),
        billing: new Agent({ name: 'billing', instructions: 'Handle refunds.', model, tools }),
      },
      entryAgent: 'triage',
    }),
});
