import { getEventListeners } from 'node:events';
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest, ModelStreamEvent, ToolDefinition } from '../contracts/model.js';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { type AnthropicModelOptions, anthropicModel } from './anthropic.js';

const weather: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

function model(options: AnthropicModelOptions = {}) {
  return anthropicModel('claude-opus-4-7', {
    apiKey: 'test-key',
    baseURL: server.anthropicBaseURL,
    maxRetries: 0,
    ...options,
  });
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function body(index = 0): Record<string, unknown> {
  const request = server.requests[index];
  if (!request) throw new Error(`no request #${index} was recorded`);
  return request.body;
}

describe('anthropicModel', () => {
  it('sends the system prompt, messages and model (no temperature), and returns the answer', async () => {
    server.enqueue({ text: 'Paris.' });
    const m = model();
    const response = await m.generate({
      system: 'Answer in one word.',
      messages: [
        { role: 'system', content: 'Be polite.' },
        { role: 'user', content: 'Capital of France?', name: 'geo' },
        { role: 'user', content: 'Quickly.' },
      ],
      maxTokens: 50,
      temperature: 0.2,
    });

    expect(m.id).toBe('anthropic:claude-opus-4-7');
    expect(response.text).toBe('Paris.');
    expect(response.finishReason).toBe('stop');
    expect(response.modelId).toBe('claude-opus-4-7');
    expect(body()).toEqual({
      model: 'claude-opus-4-7',
      max_tokens: 50,
      system: 'Answer in one word.\n\nBe polite.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '[geo] Capital of France?' },
            { type: 'text', text: 'Quickly.' },
          ],
        },
      ],
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('defaults max_tokens to 4096', async () => {
    server.enqueue({ text: 'ok' });
    await model().generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(body().max_tokens).toBe(4096);
  });

  it('sends tools and parses the tool_use block into a tool call', async () => {
    server.enqueue({ toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weather],
    });

    expect(body().tools).toEqual([
      { name: 'get_weather', description: weather.description, input_schema: weather.parameters },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(response.toolCalls).toEqual([{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }]);
  });

  it('sends tool calls as tool_use blocks and merges consecutive tool results into one user turn', async () => {
    server.enqueue({ text: 'Sunny in Oslo, rain in Lima.' });
    await model().generate({
      messages: [
        { role: 'user', content: 'Weather in Oslo and Lima?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          toolCalls: [
            { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Oslo' } },
            { id: 'toolu_b', name: 'get_weather', arguments: { city: 'Lima' } },
          ],
        },
        { role: 'tool', content: 'sunny', toolCallId: 'toolu_a' },
        { role: 'tool', content: 'rain', toolCallId: 'toolu_b' },
        { role: 'user', content: 'Summarize.' },
      ],
      tools: [weather],
    });
    expect(body().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Lima?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: { city: 'Lima' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'rain' },
          { type: 'text', text: 'Summarize.' },
        ],
      },
    ]);
  });

  it('forces the named tool with tool_choice {type: "tool"}', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'Rome' }],
      tools: [weather],
      toolChoice: { name: 'get_weather' },
    });
    expect(body().tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(response.toolCalls[0]?.arguments).toEqual({ city: 'Rome' });
  });

  it('maps all four tool choices to their Anthropic forms', async () => {
    const choices: ModelRequest['toolChoice'][] = ['auto', 'required', 'none', { name: 'get_weather' }];
    for (const _ of choices) server.enqueue({ text: 'ok' });
    for (const toolChoice of choices) {
      await model().generate({ messages: [{ role: 'user', content: 'hi' }], tools: [weather], toolChoice });
    }
    expect(server.requests.map((request) => request.body.tool_choice)).toEqual([
      { type: 'auto' },
      { type: 'any' },
      { type: 'none' },
      { type: 'tool', name: 'get_weather' },
    ]);
  });

  it('maps usage: cache reads count as input and as cached tokens, thinking as reasoning', async () => {
    server.enqueue({
      text: 'ok',
      usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100, reasoningTokens: 12 },
    });
    const response = await model().generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests).toHaveLength(1);
    expect(response.usage).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      cachedTokens: 100,
      reasoningTokens: 12,
      totalTokens: 150,
    });
  });

  it('maps stop reasons (a refusal as the answer when refusals is "answer")', async () => {
    server.enqueue({ text: 'cut', finishReason: 'length' }, { text: 'no', finishReason: 'content-filter' });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect((await model().generate({ messages })).finishReason).toBe('length');
    expect((await model({ refusals: 'answer' }).generate({ messages })).finishReason).toBe('content-filter');
  });

  it('streams text deltas that concatenate to the final text', async () => {
    server.enqueue({
      text: 'The quick brown fox jumps.',
      usage: { inputTokens: 10, outputTokens: 6, cachedTokens: 4 },
    });
    const events = await collect(model().stream!({ messages: [{ role: 'user', content: 'Tell me.' }] }));

    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The quick brown fox jumps.');
    const last = events.at(-1);
    expect(last?.type).toBe('finish');
    if (last?.type !== 'finish') return;
    expect(last.response.text).toBe('The quick brown fox jumps.');
    expect(last.response.finishReason).toBe('stop');
    expect(last.response.usage).toEqual({
      inputTokens: 10,
      outputTokens: 6,
      cachedTokens: 4,
      reasoningTokens: 0,
      totalTokens: 16,
    });
    expect(body().stream).toBe(true);
  });

  it('streams each tool call once, assembled whole with parsed arguments', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Oslo' } },
        { id: 'toolu_b', name: 'get_weather', arguments: { city: 'Lima' } },
      ],
    });
    const events = await collect(
      model().stream!({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] }),
    );

    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.toolCall] : []));
    expect(calls).toEqual([
      { id: 'toolu_a', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'toolu_b', name: 'get_weather', arguments: { city: 'Lima' } },
    ]);
    const last = events.at(-1);
    expect(last?.type === 'finish' && last.response.toolCalls).toEqual(calls);
    expect(last?.type === 'finish' && last.response.finishReason).toBe('tool-calls');
  });

  it('retries a 429 after its Retry-After and returns the answer', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 10 }, { text: 'after the wait' });
    const response = await model({ maxRetries: 2 }).generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(response.text).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 and returns the answer', async () => {
    server.enqueue({ fault: 'server-error', retryAfterMs: 10 }, { text: 'recovered' });
    const response = await model({ maxRetries: 1 }).generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(response.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('raises a retryable ModelError with the status when retries are used up', async () => {
    server.enqueue({ fault: 'server-error' });
    const error = await model({ maxRetries: 0 })
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 500, provider: 'anthropic', retryable: true });
  });

  it('turns an abort in the middle of a call into an AbortError', async () => {
    await server.close();
    server = await mockProviderServer({ latencyMs: 5_000 });
    server.enqueue({ text: 'too late' });
    const controller = new AbortController();
    const pending = model().generate({
      messages: [{ role: 'user', content: 'hi' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('turns an abort in the middle of a stream into an AbortError', async () => {
    await server.close();
    server = await mockProviderServer({ chunkDelayMs: 20 });
    server.enqueue({ text: 'one two three four five six seven eight nine ten' });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      const events = model().stream!({
        messages: [{ role: 'user', content: 'hi' }],
        signal: controller.signal,
      });
      for await (const event of events) {
        if (event.type === 'text-delta') {
          seen.push(event.delta);
          if (seen.length === 2) controller.abort();
        }
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(2);
  });

  it('cuts a hanging call at timeoutMs with a retryable ModelError', async () => {
    server.enqueue({ fault: 'hang' });
    const started = Date.now();
    const error = await model({ timeoutMs: 100, maxRetries: 0 })
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true, provider: 'anthropic' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('raises a ConfigError naming ANTHROPIC_API_KEY at the first call when no key is set', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const keyless = anthropicModel('claude-opus-4-7', { baseURL: server.anthropicBaseURL });
      const error = await keyless
        .generate({ messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

describe('anthropicModel request options', () => {
  it("hands a client the user brings a fresh real AbortSignal per attempt, never the caller's", async () => {
    const seen: Anthropic.RequestOptions[] = [];
    const client = {
      messages: {
        create: async (_params: unknown, options: Anthropic.RequestOptions) => {
          seen.push(options);
          return {
            model: 'claude-opus-4-7',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
          };
        },
      },
    } as unknown as Anthropic;
    const fake = anthropicModel('claude-opus-4-7', { client, timeoutMs: 1_234 });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await fake.generate({ messages });
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[0]).toMatchObject({ timeout: 1_234, maxRetries: 0 });

    const { signal } = new AbortController();
    for (let i = 0; i < 100; i++) await fake.generate({ messages, signal });
    expect(seen[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen[1]?.signal).not.toBe(signal);
    expect(new Set(seen.map((options) => options.signal)).size).toBe(seen.length);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('creates its own client with the attempt timeout and no retries of its own: swarm retries', async () => {
    const own = model({ timeoutMs: 5_000, maxRetries: 1, initialRetryDelayMs: 1 });
    server.enqueue({ fault: 'server-error' }, { text: 'ok' }, { text: 'again' });
    const first = await own.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(first.text).toBe('ok');
    const second = await own.generate({ messages: [{ role: 'user', content: 'again' }] });
    expect(second.text).toBe('again');
    expect(server.requests).toHaveLength(3); // one retry, by swarm: each request is a first try for the SDK
    for (const request of server.requests) {
      expect(request.headers['x-stainless-retry-count']).toBe('0');
      expect(request.headers['x-stainless-timeout']).toBe('5');
    }
  });

  it('rejects a request it cannot send with a ConfigError before loading anything or sending', async () => {
    const error = await model()
      .generate({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', content: '5' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(server.requests).toHaveLength(0);
  });

  it('runs the attempts of an Anthropic client the user brings on fresh real AbortSignals, cut by an abort', async () => {
    const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
    const client = new AnthropicSdk({ apiKey: 'k', baseURL: server.anthropicBaseURL, maxRetries: 0 });
    const seen: Anthropic.RequestOptions[] = [];
    const create = client.messages.create.bind(client.messages);
    client.messages.create = ((params: never, options: Anthropic.RequestOptions) => {
      seen.push(options);
      return create(params, options);
    }) as typeof client.messages.create;
    const theirs = anthropicModel('claude-opus-4-7', { client });
    server.enqueue({ text: 'ok' });
    expect((await theirs.generate({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('ok');
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);

    server.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(
      theirs.generate({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('cuts the connection of a body that stalls after its headers at timeoutMs, with or without a caller signal', async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      for (const stream of [false, true]) {
        server.enqueue({ fault: 'stall' });
        const started = performance.now();
        const request = { messages: [{ role: 'user' as const, content: 'hi' }], signal };
        const pending = stream
          ? collect(model({ timeoutMs: 300 }).stream!(request))
          : model({ timeoutMs: 300 }).generate(request);
        const error = await pending.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ModelError);
        expect((error as Error).message).toMatch(/timed out after 300 ms/);
        expect(performance.now() - started).toBeLessThan(5_000);
        // The SDK's request was cut, not abandoned: the server sees the connection close.
        await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });
      }
    }
  });
});
