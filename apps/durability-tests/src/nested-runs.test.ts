// Nested runs over the real openai SDK: a workflow around a hierarchy, and an agent
// around that workflow (three levels of runs), each result counting what the provider answered.
import {
  Agent,
  type Guardrail,
  GuardrailTripwireError,
  openaiModel,
  type SwarmEvent,
  tool,
} from '@swarm/core';
import {
  CountingModel,
  type MockProviderServer,
  type MockReply,
  mockProviderServer,
} from '@swarm/core/testing';
import { HierarchicalSwarm } from '@swarm/hierarchy';
import { SequentialWorkflow } from '@swarm/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer } from './crash-run.js';

let server: MockProviderServer;

beforeAll(async () => {
  server = await mockProviderServer({
    handler: (request): MockReply => {
      const body = request.body as { messages: { role: string }[]; tools?: { function: { name: string } }[] };
      const asksBrief = body.tools?.some((t) => t.function.name === 'brief');
      if (asksBrief && !body.messages.some((m) => m.role === 'tool')) {
        return { toolCalls: [{ id: 'brief-1', name: 'brief', arguments: { task: 'Bike lanes, please.' } }] };
      }
      return answer(request);
    },
  });
});

afterAll(() => server.close());

function workflowAroundHierarchy(model: CountingModel, guard?: Guardrail): SequentialWorkflow {
  const note = tool({
    name: 'note',
    description: 'Writes a note.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => `noted: ${text}`,
  });
  const agent = (name: string, tools = [note]) =>
    new Agent({ name, instructions: `You are the ${name}.`, model, tools });
  const hierarchy = new HierarchicalSwarm({
    name: 'analysis',
    director: model,
    agents: [agent('analyst'), agent('checker')],
  });
  if (guard) hierarchy.withGuardrails({ outputGuardrails: [guard] });
  return new SequentialWorkflow({ agents: [agent('researcher'), hierarchy, agent('editor', [])] });
}

const counting = () =>
  new CountingModel(
    openaiModel('gpt-totals', { baseURL: server.openaiBaseURL, apiKey: 'test', maxRetries: 0 }),
  );

describe('totals of nested runs', () => {
  it("a workflow's result counts the calls of the hierarchy nested in it", async () => {
    const model = counting();
    const result = await workflowAroundHierarchy(model).run('Write a brief on bike lanes.');
    // researcher 2 (note, answer), director 1, two workers 2 each, editor 1: at least 7 calls.
    expect(model.calls).toBeGreaterThanOrEqual(7);
    expect(result.llmCalls).toBe(model.calls);
    expect(result.usage).toEqual(model.usage);
  });

  it('an agent around that workflow counts all three levels, and its own calls apart', async () => {
    const model = counting();
    const lead = new Agent({
      name: 'lead',
      instructions: 'You are the lead.',
      model,
      tools: [workflowAroundHierarchy(model).asTool({ name: 'brief', description: 'Writes a brief.' })],
    });
    const result = await lead.run('Get me a brief on bike lanes.');
    expect(result.ownLlmCalls).toBe(2);
    expect(result.llmCalls).toBe(model.calls);
    expect(result.liveCalls).toBe(model.calls);
    expect(result.usage).toEqual(model.usage);
    expect(result.ownUsage.totalTokens).toBeLessThan(result.usage.totalTokens);
  });
});

describe('guardrails of a nested topology', () => {
  it("end the whole run when the hierarchy inside a workflow inside an agent's tool trips", async () => {
    const model = counting();
    const seen: string[] = [];
    const guard: Guardrail = {
      name: 'analysis-review',
      check: (output) => {
        seen.push(output);
        return { tripwire: true, info: { reason: 'needs a human review' } };
      },
    };
    const lead = new Agent({
      name: 'lead',
      instructions: 'You are the lead.',
      model,
      tools: [
        workflowAroundHierarchy(model, guard).asTool({ name: 'brief', description: 'Writes a brief.' }),
      ],
    });
    const events: SwarmEvent[] = [];
    const error = await lead
      .run('Get me a brief on bike lanes.', { onEvent: (e) => events.push(e) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailTripwireError);
    expect(error).toMatchObject({
      guardrail: 'analysis-review',
      kind: 'output',
      info: { reason: 'needs a human review' },
    });
    expect(seen).toHaveLength(1);
    const trip = events.find((e) => e.type === 'guardrail.trip');
    expect(trip?.path).toEqual(['lead', 'SequentialWorkflow', 'HierarchicalSwarm']);
    // The editor step after the hierarchy never ran, and the lead made no second call.
    expect(events.some((e) => e.type === 'agent.start' && e.agent === 'editor')).toBe(false);
    expect(events.filter((e) => e.type === 'model.request' && e.agent === 'lead')).toHaveLength(1);
  });
});
