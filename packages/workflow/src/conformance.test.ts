import { Agent, type Model } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { AgentRearrange } from './agent-rearrange.js';
import { BatchedGridWorkflow } from './batched-grid-workflow.js';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { GraphWorkflow } from './graph-workflow.js';
import { RoundRobin } from './round-robin.js';
import { SequentialWorkflow } from './sequential-workflow.js';

const agents = (model: Model, ...names: string[]) => names.map((name) => new Agent({ name, model }));

topologyConformanceTests('SequentialWorkflow', {
  create: (model) => new SequentialWorkflow({ agents: agents(model, 'researcher', 'writer', 'editor') }),
});

topologyConformanceTests('ConcurrentWorkflow', {
  create: (model) =>
    new ConcurrentWorkflow({
      agents: agents(model, 'optimist', 'pessimist', 'realist'),
      aggregator: new Agent({ name: 'judge', model }),
    }),
});

topologyConformanceTests('AgentRearrange', {
  create: (model) =>
    new AgentRearrange({
      agents: agents(model, 'researcher', 'writer', 'critic', 'editor'),
      flow: 'researcher -> writer, critic -> editor',
    }),
});

topologyConformanceTests('RoundRobin', {
  create: (model) => new RoundRobin({ agents: agents(model, 'alice', 'bob', 'carol'), rounds: 2 }),
});

topologyConformanceTests('BatchedGridWorkflow', {
  create: (model) => new BatchedGridWorkflow({ agents: agents(model, 'translator', 'summarizer', 'critic') }),
});

topologyConformanceTests('GraphWorkflow', {
  create: (model) => {
    const [plan, frontend, backend, review] = agents(model, 'plan', 'frontend', 'backend', 'review');
    return new GraphWorkflow({
      nodes: { plan: plan!, frontend: frontend!, backend: backend!, review: review! },
      edges: [
        ['plan', 'frontend'],
        ['plan', 'backend'],
        ['frontend', 'review'],
        ['backend', 'review'],
      ],
    });
  },
});
