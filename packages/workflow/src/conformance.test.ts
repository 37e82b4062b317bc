import { Agent, type Model } from '@swarm/core';
import { describeTopologyConformance } from '@swarm/core/testing/vitest';
import { AgentRearrange } from './agent-rearrange.js';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { SequentialWorkflow } from './sequential-workflow.js';

const agents = (model: Model, ...names: string[]) => names.map((name) => new Agent({ name, model }));

describeTopologyConformance('SequentialWorkflow', {
  create: (model) => new SequentialWorkflow({ agents: agents(model, 'researcher', 'writer', 'editor') }),
});

describeTopologyConformance('ConcurrentWorkflow', {
  create: (model) =>
    new ConcurrentWorkflow({
      agents: agents(model, 'optimist', 'pessimist', 'realist'),
      aggregator: new Agent({ name: 'judge', model }),
    }),
});

describeTopologyConformance('AgentRearrange', {
  create: (model) =>
    new AgentRearrange({
      agents: agents(model, 'researcher', 'writer', 'critic', 'editor'),
      flow: 'researcher -> writer, critic -> editor',
    }),
});
