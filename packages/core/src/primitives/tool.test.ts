import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { Message, Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { type Tool, toJsonSchema, tool, toolDefinition } from './tool.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('toJsonSchema', () => {
  it('converts a schema once and returns the same frozen object after', () => {
    const schema = z.object({ city: z.string().describe('Where.') });
    const first = toJsonSchema(schema);
    expect(first).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'Where.' } },
      required: ['city'],
    });
    expect(toJsonSchema(schema)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.properties)).toBe(true);
  });

  it('refuses a change to the shared schema, which stays as it was', () => {
    const schema = z.object({ city: z.string() });
    const shared = toJsonSchema(schema);
    expect(() => {
      (shared.properties as Record<string, unknown>).country = { type: 'string' };
    }).toThrow(TypeError);
    expect(toJsonSchema(schema).properties).toEqual({ city: { type: 'string' } });
  });

  it('keeps apart schemas that are equal but distinct objects', () => {
    const a = z.object({ n: z.number() });
    const b = z.object({ n: z.number().describe('A count.') });
    expect(toJsonSchema(a)).not.toBe(toJsonSchema(b));
    expect(toJsonSchema(b).properties).toEqual({ n: { type: 'number', description: 'A count.' } });
  });
});

describe('toolDefinition', () => {
  it('builds a tool definition once and returns the same object after', () => {
    const definition = toolDefinition(add);
    expect(definition).toEqual({
      name: 'add',
      description: 'Add two numbers.',
      parameters: toJsonSchema(add.parameters),
    });
    expect(toolDefinition(add)).toBe(definition);
    expect(Object.isFrozen(definition)).toBe(true);
  });

  it('builds it again for a hand-made tool whose description or parameters were replaced', () => {
    const handMade: { -readonly [K in keyof Tool]: Tool[K] } = {
      name: 'lookup',
      description: 'Look up a city.',
      parameters: z.object({ city: z.string() }),
      execute: () => 'found',
    };
    const before = toolDefinition(handMade);
    handMade.description = 'Look up a country.';
    handMade.parameters = z.object({ country: z.string() });
    const after = toolDefinition(handMade);
    expect(after).not.toBe(before);
    expect(after.description).toBe('Look up a country.');
    expect(after.parameters.properties).toEqual({ country: { type: 'string' } });
    expect(before.parameters.properties).toEqual({ city: { type: 'string' } });
  });
});

// Keeps each request as the agent passed it (ScriptedModel keeps copies), so that the tests see
// which objects the agent shares between calls and whether it changed one after sending it.
function recordingModel(steps: ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'recording',
    requests,
    generate: async (request) => {
      requests.push(request);
      const step = steps.shift();
      if (!step) throw new Error('recordingModel: the script is spent.');
      return step;
    },
  };
}

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };
const answer = (text: string): ModelResponse => ({
  text,
  toolCalls: [],
  usage,
  finishReason: 'stop',
  modelId: 'recording',
});
const callAdd = (a: number, b: number): ModelResponse => ({
  text: '',
  toolCalls: [{ id: `c${a}${b}`, name: 'add', arguments: { a, b } }],
  usage,
  finishReason: 'tool-calls',
  modelId: 'recording',
});

describe('Agent tool definitions', () => {
  it('sends the same definition objects on every turn and every run, for its own and run tools', async () => {
    const extra = tool({
      name: 'echo',
      description: 'Echo the text.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const model = recordingModel([callAdd(1, 2), answer('3.'), answer('Nothing to add.'), answer('Still.')]);
    const agent = new Agent({ name: 'calc', model, tools: [add] });
    await agent.run('1+2?');
    await agent.run('Hi', { tools: [extra] });
    await agent.run('Hi again', { tools: [extra] });
    const [first, second, third, fourth] = model.requests.map((request) => request.tools);
    expect(first?.map((t) => t.name)).toEqual(['add']);
    expect(second?.[0]).toBe(first?.[0]);
    expect(third?.map((t) => t.name)).toEqual(['add', 'echo']);
    expect(third?.[0]).toBe(first?.[0]);
    expect(fourth?.[1]).toBe(third?.[1]);
    expect(third?.[1]).toBe(toolDefinition(extra));
  });

  it('leaves the messages of an earlier call as they were sent', async () => {
    const model = recordingModel([callAdd(2, 3), answer('5.')]);
    const agent = new Agent({ name: 'calc', model, tools: [add] });
    await agent.run('2+3?');
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: '2+3?' }]);
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it("does not share the caller's input array with the model", async () => {
    const model = recordingModel([answer('Hello.')]);
    const input: Message[] = [{ role: 'user', content: 'Hi' }];
    await new Agent({ name: 'greeter', model }).run(input);
    input.push({ role: 'user', content: 'changed afterwards' });
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });
});
