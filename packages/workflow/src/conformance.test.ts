import { Agent, type Model, type Tool } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { AgentRearrange } from './agent-rearrange.js';
import { BatchedGridWorkflow } from './batched-grid-workflow.js';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { GraphWorkflow } from './graph-workflow.js';
import { RoundRobin } from './round-robin.js';
import { SequentialWorkflow } from './sequential-workflow.js';

const agents = (model: Model, tools: Tool[], ...names: string[]) =>
  names.map((name) => new Agent({ name, model, tools }));

topologyConformanceTests('SequentialWorkflow', {
  create: (model, { tools, guardrails }) =>
    new SequentialWorkflow({ ...guardrails, agents: agents(model, tools, 'researcher', 'writer', 'editor') }),
});

topologyConformanceTests('ConcurrentWorkflow', {
  create: (model, { tools, guardrails }) =>
    new ConcurrentWorkflow({
      ...guardrails,
      agents: agents(model, tools, 'optimist', 'pessimist', 'realist'),
      aggregator: new Agent({ name: 'judge', model, tools }),
    }),
});

topologyConformanceTests('AgentRearrange', {
  create: (model, { tools, guardrails }) =>
    new AgentRearrange({
      ...guardrails,
      agents: agents(model, tools, 'researcher', 'writer', 'critic', 'editor'),
      flow: 'researcher -> writer, critic -> editor',
    }),
});

topologyConformanceTests('RoundRobin', {
  create: (model, { tools, guardrails }) =>
    new RoundRobin({ ...guardrails, agents: agents(model, tools, 'alice', 'bob', 'carol'), rounds: 2 }),
});

topologyConformanceTests('BatchedGridWorkflow', {
  create: (model, { tools, guardrails }) =>
    new BatchedGridWorkflow({
      ...guardrails,
      agents: agents(model, tools, 'translator', 'summarizer', 'critic'),
    }),
});

topologyConformanceTests('GraphWorkflow', {
  create: (model, { tools, guardrails }) => {
    const [plan, frontend, backend, review] = agents(model, tools, 'plan', 'frontend', 'backend', 'review');
    return new GraphWorkflow({
      ...guardrails,
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
