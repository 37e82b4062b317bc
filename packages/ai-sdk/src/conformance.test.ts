// The topology contract holds for topologies whose agents run on an AI SDK model: core's
// conformance suite, a SequentialWorkflow and a ConcurrentWorkflow over aiSdkModel.
import { Agent, fnv1a, type Model, type Tool } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { ConcurrentWorkflow, SequentialWorkflow } from '@swarm/workflow';
import { MockLanguageModelV4 } from 'ai/test';
import { aiSdkModel } from './ai-sdk-model.js';
import { generated, usage } from './test-support.js';

/** An AI SDK model that answers any prompt with a short text derived from it (the same prompt, the same text). */
function answeringModel(): Model {
  return aiSdkModel(
    new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        const text = `answer ${fnv1a(JSON.stringify(prompt)).toString(16)}`;
        return generated([{ type: 'text', text }], {
          usage: usage(12 + prompt.length, 4, { cacheRead: 2, reasoning: 1 }),
        });
      },
    }),
  );
}

const agents = (model: Model, tools: Tool[], ...names: string[]) =>
  names.map((name) => new Agent({ name, model, tools }));

topologyConformanceTests('SequentialWorkflow on an AI SDK model', {
  model: answeringModel,
  create: (model, { tools, guardrails }) =>
    new SequentialWorkflow({ ...guardrails, agents: agents(model, tools, 'researcher', 'writer', 'editor') }),
});

topologyConformanceTests('ConcurrentWorkflow on an AI SDK model', {
  model: answeringModel,
  create: (model, { tools, guardrails }) =>
    new ConcurrentWorkflow({
      ...guardrails,
      agents: agents(model, tools, 'optimist', 'pessimist'),
      aggregator: new Agent({ name: 'judge', model }),
    }),
});
