import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { runMember } from '../composition/member.js';
import { ConfigError, StructuredOutputError } from '../kernel/errors.js';
import { RunContext } from '../kernel/run-context.js';
import { tool } from '../primitives/tool.js';
import { anthropicModel } from '../providers/anthropic.js';
import { openaiModel } from '../providers/openai.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { reply, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

const Forecast = z.object({ city: z.string(), highC: z.number(), rain: z.boolean() });

const weather = tool({
  name: 'weather',
  description: 'Today’s weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21°C, showers`,
});

describe('Agent outputType on a model without native JSON output (a forced final tool)', () => {
  it('ends with the validated object after a tool call, the final tool forced on every turn', async () => {
    const model = new ScriptedModel([
      toolCall('weather', { city: 'Oslo' }),
      toolCall('final_output', { city: 'Oslo', highC: 21, rain: true }),
    ]);
    const agent = new Agent({ name: 'forecaster', model, tools: [weather], outputType: Forecast });
    const result = await agent.run('Weather in Oslo?');
    expectTypeOf(result.finalOutput).toEqualTypeOf<{ city: string; highC: number; rain: boolean }>();
    expect(result.finalOutput).toEqual({ city: 'Oslo', highC: 21, rain: true });
    expect(JSON.parse(result.output)).toEqual(result.finalOutput);
    expect(result.endedBy).toBeUndefined();
    expect(model.calls.map((c) => c.toolChoice)).toEqual(['required', 'required']);
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual(['weather', 'final_output']);
    expect(agent.tools.map((t) => t.name)).toEqual(['weather']);
  });

  it('forces the final tool by name when the agent has no other tool', async () => {
    const model = new ScriptedModel([toolCall('final_output', { city: 'Rome', highC: 30, rain: false })]);
    const agent = new Agent({ name: 'f', model, outputType: Forecast });
    const result = await agent.run('Rome?');
    expect(result.finalOutput.city).toBe('Rome');
    expect(model.lastCall?.toolChoice).toEqual({ name: 'final_output' });
  });

  it('sends an invalid object back with the problem, and ends with the repaired one', async () => {
    const model = new ScriptedModel([
      toolCall('final_output', { city: 'Oslo', highC: 'warm', rain: true }),
      toolCall('final_output', { city: 'Oslo', highC: 21, rain: true }),
    ]);
    const agent = new Agent({ name: 'f', model, outputType: Forecast });
    const result = await agent.run('Oslo?');
    expect(result.finalOutput.highC).toBe(21);
    expect(result.llmCalls).toBe(2);
    const sentBack = model.calls[1]?.messages.at(-1);
    expect(sentBack).toMatchObject({ role: 'tool' });
    expect(sentBack?.content).toContain('highC');
  });

  it('asks again when the model answers in prose instead of calling the final tool', async () => {
    const model = new ScriptedModel([
      reply('It is warm in Oslo.'),
      toolCall('final_output', { city: 'Oslo', highC: 21, rain: false }),
    ]);
    const agent = new Agent({ name: 'f', model, outputType: Forecast });
    const result = await agent.run('Oslo?');
    expect(result.finalOutput.rain).toBe(false);
    expect(model.calls[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'You must give your final answer by calling the function final_output.',
    });
  });

  it('fails with StructuredOutputError naming the last problems when no object is ever valid', async () => {
    const model = new ScriptedModel([
      toolCall('final_output', { city: 'Oslo' }),
      toolCall('final_output', { city: 'Oslo', highC: 'hot', rain: true }),
    ]);
    const agent = new Agent({ name: 'f', model, outputType: Forecast, maxOutputRepairs: 1 });
    const error = await agent.run('Oslo?').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputError);
    const attempts = (error as StructuredOutputError).attempts;
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toContain('highC');
    expect(attempts[1]).toContain('highC');
    expect((error as Error).message).toContain('2 attempts');
    model.assertComplete();
  });

  it('rejects an outputType that is not a z.object, and a tool that takes the final tool’s name', () => {
    expect(
      () => new Agent({ name: 'f', model: new ScriptedModel([]), outputType: z.string() as never }),
    ).toThrow(ConfigError);
    const clash = tool({
      name: 'final_output',
      description: '',
      parameters: z.object({}),
      execute: () => '',
    });
    expect(
      () => new Agent({ name: 'f', model: new ScriptedModel([]), tools: [clash], outputType: Forecast }),
    ).toThrow(/final_output/);
    expect(
      () =>
        new Agent({ name: 'f', model: new ScriptedModel([]), outputType: Forecast, maxOutputRepairs: -1 }),
    ).toThrow(/maxOutputRepairs/);
  });

  it("takes a run's outputType in place of its own: how a topology types its final member", async () => {
    const model = new ScriptedModel([
      toolCall('weather', { city: 'Oslo' }),
      toolCall('final_output', { city: 'Oslo', highC: 21, rain: true }),
    ]);
    const agent = new Agent({ name: 'plain', model, tools: [weather] });
    const ran = await runMember(agent, 'Oslo?', new RunContext(), { outputType: Forecast });
    expect(ran.finalOutput).toEqual({ city: 'Oslo', highC: 21, rain: true });
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual(['weather', 'final_output']);
    expect(model.calls[0]?.toolChoice).toBe('required');
    const topology = new ScriptedModel([reply('x')]);
    const inner = new Agent({ name: 'inner', model: topology });
    await expect(
      runMember(
        {
          type: 'T',
          name: 't',
          run: () => inner.run('x'),
          stream: () => {
            throw new Error('unused');
          },
        } as never,
        'x',
        new RunContext(),
        { outputType: Forecast },
      ),
    ).rejects.toThrow(/its own outputType/);
  });

  it('keeps finalOutput as the text for an agent without outputType', async () => {
    const agent = new Agent({ name: 'plain', model: new ScriptedModel([reply('hello')]) });
    const result = await agent.run('hi');
    expectTypeOf(result.finalOutput).toEqualTypeOf<string>();
    expect(result.finalOutput).toBe('hello');
  });
});

describe('Agent outputType through the real SDKs', () => {
  let server: MockProviderServer;
  beforeEach(async () => {
    server = await mockProviderServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const openai = () => openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });

  it('asks OpenAI for strict json_schema output and validates the JSON answer, after a tool call', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } }] },
      { text: '{"city":"Oslo","highC":21,"rain":true}' },
    );
    const agent = new Agent({ name: 'forecaster', model: openai(), tools: [weather], outputType: Forecast });
    const result = await agent.run('Weather in Oslo?');
    expect(result.finalOutput).toEqual({ city: 'Oslo', highC: 21, rain: true });
    for (const request of server.requests) {
      const body = request.body as { response_format?: unknown; tools?: { function: { name: string } }[] };
      expect(body.response_format).toEqual({
        type: 'json_schema',
        json_schema: {
          name: 'final_output',
          strict: true,
          schema: expect.objectContaining({
            type: 'object',
            required: ['city', 'highC', 'rain'],
            additionalProperties: false,
          }),
        },
      });
      // Native output needs no final tool.
      expect(body.tools?.map((t) => t.function.name)).toEqual(['weather']);
    }
  });

  it('repairs an OpenAI answer that does not match the schema', async () => {
    server.enqueue(
      { text: '{"city":"Oslo","highC":"warm","rain":true}' },
      { text: '{"city":"Oslo","highC":21,"rain":true}' },
    );
    const agent = new Agent({ name: 'forecaster', model: openai(), outputType: Forecast });
    const result = await agent.run('Weather in Oslo?');
    expect(result.finalOutput.highC).toBe(21);
    expect(result.llmCalls).toBe(2);
    const second = server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: '{"city":"Oslo","highC":"warm","rain":true}',
    });
    expect(second.messages.at(-1)?.role).toBe('user');
    expect(second.messages.at(-1)?.content).toContain('highC');
  });

  it('sends a schema with optional properties to OpenAI as non-strict json_schema', async () => {
    server.enqueue({ text: '{"city":"Oslo"}' });
    const Loose = z.object({ city: z.string(), note: z.string().optional() });
    const agent = new Agent({ name: 'f', model: openai(), outputType: Loose });
    const result = await agent.run('Oslo?');
    expect(result.finalOutput).toEqual({ city: 'Oslo' });
    const body = server.requests[0]?.body as { response_format: { json_schema: { strict: boolean } } };
    expect(body.response_format.json_schema.strict).toBe(false);
  });

  it('forces the final tool on Anthropic: by name without tools, "any" beside tools', async () => {
    const model = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: server.anthropicBaseURL,
      maxRetries: 0,
    });
    server.enqueue(
      { toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: { city: 'Oslo' } }] },
      {
        toolCalls: [
          { id: 'toolu_2', name: 'final_output', arguments: { city: 'Oslo', highC: 21, rain: true } },
        ],
      },
      {
        toolCalls: [
          { id: 'toolu_3', name: 'final_output', arguments: { city: 'Rome', highC: 30, rain: false } },
        ],
      },
    );
    const withTools = new Agent({ name: 'forecaster', model, tools: [weather], outputType: Forecast });
    const first = await withTools.run('Weather in Oslo?');
    expect(first.finalOutput).toEqual({ city: 'Oslo', highC: 21, rain: true });
    const alone = new Agent({ name: 'f', model, outputType: Forecast });
    const second = await alone.run('Rome?');
    expect(second.finalOutput.city).toBe('Rome');
    const bodies = server.requests.map(
      (r) => r.body as { tool_choice?: unknown; tools?: { name: string; input_schema: unknown }[] },
    );
    expect(bodies.map((b) => b.tool_choice)).toEqual([
      { type: 'any' },
      { type: 'any' },
      { type: 'tool', name: 'final_output' },
    ]);
    expect(bodies[0]?.tools?.map((t) => t.name)).toEqual(['weather', 'final_output']);
    expect(bodies[2]?.tools?.[0]?.input_schema).toMatchObject({
      type: 'object',
      required: ['city', 'highC', 'rain'],
    });
  });
});
