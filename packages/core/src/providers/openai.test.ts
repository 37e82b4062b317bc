import { getEventListeners } from 'node:events';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest, ModelStreamEvent, ToolDefinition } from '../contracts/model.js';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { type OpenAIModelOptions, openaiModel } from './openai.js';

const weather: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

function model(options: OpenAIModelOptions = {}) {
  return openaiModel('gpt-5.4', {
    apiKey: 'test-key',
    baseURL: server.openaiBaseURL,
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

describe('openaiModel', () => {
  it('sends the system prompt, messages and model, and returns the answer', async () => {
    server.enqueue({ text: 'Paris.' });
    const response = await model().generate({
      system: 'Answer in one word.',
      messages: [
        { role: 'user', content: 'Capital of France?', name: 'geo expert' },
        { role: 'assistant', content: 'Let me think.' },
        { role: 'user', content: 'Well?' },
      ],
      temperature: 0.2,
      maxTokens: 50,
    });

    expect(response.text).toBe('Paris.');
    expect(response.finishReason).toBe('stop');
    expect(response.modelId).toBe('gpt-5.4');
    expect(body()).toMatchObject({
      model: 'gpt-5.4',
      temperature: 0.2,
      max_completion_tokens: 50,
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'Capital of France?', name: 'geo_expert' },
        { role: 'assistant', content: 'Let me think.' },
        { role: 'user', content: 'Well?' },
      ],
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('uses max_tokens instead of max_completion_tokens when told to', async () => {
    server.enqueue({ text: 'ok' });
    await model({ maxTokensParam: 'max_tokens' }).generate({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 7,
    });
    expect(body().max_tokens).toBe(7);
    expect(body()).not.toHaveProperty('max_completion_tokens');
  });

  it('sends tools as function tools and parses the tool call the model makes', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weather],
    });

    expect(body().tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: weather.description, parameters: weather.parameters },
      },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }]);
  });

  it('keeps unparseable tool arguments as invalidArguments', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Os' }] });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [weather],
    });
    expect(response.toolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: {}, invalidArguments: '{"city": "Os' },
    ]);
  });

  it('sends assistant tool calls and tool results back in the OpenAI shape', async () => {
    server.enqueue({ text: 'It is sunny in Oslo.' });
    await model().generate({
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        },
        { role: 'tool', content: 'sunny', toolCallId: 'call_1' },
      ],
      tools: [weather],
    });
    expect(body().messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
  });

  it('forces the named tool with the function tool_choice form', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'Rome' }],
      tools: [weather],
      toolChoice: { name: 'get_weather' },
    });
    expect(body().tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(response.toolCalls[0]?.arguments).toEqual({ city: 'Rome' });
  });

  it('maps all four tool choices to their OpenAI forms', async () => {
    const choices: ModelRequest['toolChoice'][] = ['auto', 'required', 'none', { name: 'get_weather' }];
    for (const _ of choices) server.enqueue({ text: 'ok' });
    for (const toolChoice of choices) {
      await model().generate({ messages: [{ role: 'user', content: 'hi' }], tools: [weather], toolChoice });
    }
    expect(server.requests.map((request) => request.body.tool_choice)).toEqual([
      'auto',
      'required',
      'none',
      { type: 'function', function: { name: 'get_weather' } },
    ]);
  });

  it('maps usage, including cached and reasoning tokens', async () => {
    server.enqueue({
      text: 'ok',
      usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100, reasoningTokens: 20 },
    });
    const response = await model().generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(response.usage).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      cachedTokens: 100,
      reasoningTokens: 20,
      totalTokens: 150,
    });
  });

  it('maps finish reasons', async () => {
    server.enqueue({ text: 'cut', finishReason: 'length' }, { text: '', finishReason: 'content-filter' });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect((await model().generate({ messages })).finishReason).toBe('length');
    expect((await model().generate({ messages })).finishReason).toBe('content-filter');
  });

  it('streams text deltas that concatenate to the final text', async () => {
    server.enqueue({
      text: 'The quick brown fox jumps.',
      usage: { inputTokens: 10, outputTokens: 6, cachedTokens: 4, reasoningTokens: 2 },
    });
    const events = await collect(model().stream!({ messages: [{ role: 'user', content: 'Tell me.' }] }));

    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The quick brown fox jumps.');
    const last = events.at(-1);
    expect(last?.type).toBe('finish');
    if (last?.type !== 'finish') return;
    expect(last.response.text).toBe('The quick brown fox jumps.');
    expect(last.response.usage).toEqual({
      inputTokens: 10,
      outputTokens: 6,
      cachedTokens: 4,
      reasoningTokens: 2,
      totalTokens: 16,
    });
    expect(last.response.finishReason).toBe('stop');
    expect(body()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams each tool call once, assembled whole with parsed arguments', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Lima' } },
      ],
    });
    const events = await collect(
      model().stream!({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] }),
    );

    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.toolCall] : []));
    expect(calls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: 'call_b', name: 'get_weather', arguments: { city: 'Lima' } },
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
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 10 });
    const error = await model({ maxRetries: 0 })
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 429, provider: 'openai', retryable: true });
  });

  it('raises a retryable ModelError naming invalid JSON on a malformed body', async () => {
    server.enqueue({ fault: 'malformed' });
    const error = await model()
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('turns an abort in the middle of a call into an AbortError', async () => {
    server.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    const pending = model().generate({
      messages: [{ role: 'user', content: 'hi' }],
      signal: controller.signal,
    });
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops waiting out a Retry-After as soon as the call is aborted', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 5_000 }, { text: 'too late' });
    const controller = new AbortController();
    const started = Date.now();
    const pending = model({ maxRetries: 1 }).generate({
      messages: [{ role: 'user', content: 'hi' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    // Well before the 5 s Retry-After would have ended (loose, for a busy machine).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('turns an abort in the middle of a stream into an AbortError', async () => {
    await server.close();
    server = await mockProviderServer({ chunkDelayMs: 20 });
    server.enqueue({ text: 'one two three four five six seven eight nine ten' });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const event of model().stream!({
        messages: [{ role: 'user', content: 'hi' }],
        signal: controller.signal,
      })) {
        if (event.type === 'text-delta') {
          seen.push(event.delta);
          if (seen.length === 2) controller.abort();
        }
      }
    };
    await expect(run()).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(2);
  });

  it('cuts a hanging call at timeoutMs with a retryable ModelError, with or without a caller signal', async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      server.enqueue({ fault: 'hang' });
      const started = Date.now();
      const error = await model({ timeoutMs: 100, maxRetries: 0 })
        .generate({ messages: [{ role: 'user', content: 'hi' }], signal })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).not.toBeInstanceOf(AbortError);
      expect(error).toMatchObject({ retryable: true, provider: 'openai' });
      expect((error as Error).message).toMatch(/timed out after 100 ms/);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('rejects a request it cannot send with a ConfigError, sending nothing and retrying nothing', async () => {
    const before = server.requests.length;
    const error = await model({ maxRetries: 2 })
      .generate({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', content: '5' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/toolCallId/);
    expect(server.requests.length).toBe(before);
  });

  it('ends a call at timeoutMs or on abort even when the client given ignores every signal (a custom fetch)', async () => {
    let requests = 0;
    const deaf: Fetch = () => {
      requests++;
      return new Promise<never>(() => {});
    };
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://in-memory.invalid/v1', fetch: deaf });
    const deafModel = openaiModel('gpt-5.4', {
      client,
      timeoutMs: 50,
      maxRetries: 1,
      initialRetryDelayMs: 1,
    });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const started = Date.now();
    const timedOut = await deafModel.generate({ messages }).catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(ModelError);
    expect((timedOut as Error).message).toMatch(/timed out after 50 ms/);
    expect(requests).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const slow = openaiModel('gpt-5.4', { client, timeoutMs: 60_000 });
    await expect(slow.generate({ messages, signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("hands a client the user brings a fresh real AbortSignal per attempt, never the caller's", async () => {
    const seen: OpenAI.RequestOptions[] = [];
    const client = {
      chat: {
        completions: {
          create: async (_params: unknown, options: OpenAI.RequestOptions) => {
            seen.push(options);
            return { model: 'gpt-5.4', choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] };
          },
        },
      },
    } as unknown as OpenAI;
    const fake = openaiModel('gpt-5.4', { client, timeoutMs: 1_234 });
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

  it('creates its own client with the attempt timeout and no retries, so requests carry no per-request timeout', async () => {
    server.enqueue({ text: 'ok' }, { fault: 'server-error', retryAfterMs: 10 });
    await model({ timeoutMs: 5_000 }).generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests.at(-1)?.headers['x-stainless-timeout']).toBeUndefined();
    const before = server.requests.length;
    await expect(
      model({ maxRetries: 0 }).generate({ messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toBeInstanceOf(ModelError);
    expect(server.requests.length - before).toBe(1);
  });

  it('repeats the attempt timeout and no-retries per request only when the SDK client lacks them', async () => {
    const ask = (client: OpenAI, options: OpenAIModelOptions = {}) =>
      openaiModel('gpt-5.4', { client, maxRetries: 0, ...options }).generate({
        messages: [{ role: 'user', content: 'hi' }],
      });
    server.enqueue({ text: 'ok' }, { text: 'ok' });
    // Already the client's own: the request carries no per-request timeout header.
    await ask(new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 }));
    expect(server.requests.at(-1)?.headers['x-stainless-timeout']).toBeUndefined();
    // Another timeout: told per request.
    await ask(new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 }), {
      timeoutMs: 5_000,
    });
    expect(server.requests.at(-1)?.headers['x-stainless-timeout']).toBe('5');
    // A client that retries on its own is told not to: one request for a failed call.
    const retrying = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 2 });
    const before = server.requests.length;
    server.enqueue({ fault: 'server-error', retryAfterMs: 10 });
    await expect(ask(retrying)).rejects.toBeInstanceOf(ModelError);
    expect(server.requests.length - before).toBe(1);
  });

  it('cuts the connection of a body that stalls after its headers at timeoutMs, with or without a caller signal', async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      for (const stream of [false, true]) {
        server.enqueue({ fault: 'stall' });
        const started = performance.now();
        const request = { messages: [{ role: 'user' as const, content: 'hi' }], signal };
        const pending = stream
          ? collect(model({ timeoutMs: 100 }).stream!(request))
          : model({ timeoutMs: 100 }).generate(request);
        const error = await pending.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ModelError);
        expect((error as Error).message).toMatch(/timed out after 100 ms/);
        expect(performance.now() - started).toBeLessThan(5_000);
        // The SDK's request was cut, not abandoned: the server sees the connection close.
        await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });
      }
    }
  });

  it('cuts the connection when the caller aborts during a stalled body, for an OpenAI client the user brings too', async () => {
    const own = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
    for (const options of [{}, { client: own }]) {
      server.enqueue({ fault: 'stall' });
      const controller = new AbortController();
      const pending = model(options).generate({
        messages: [{ role: 'user', content: 'hi' }],
        signal: controller.signal,
      });
      await vi.waitFor(() => expect(server.openResponses).toBe(1), { timeout: 5_000, interval: 5 });
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(AbortError);
      await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
  });

  it('fails a call whose body stalls after the headers at timeoutMs, without a caller signal too', async () => {
    const stalled: Fetch = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"choices":'));
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const client = new OpenAI({
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:9/v1',
      maxRetries: 0,
      fetch: stalled,
    });
    for (const signal of [undefined, new AbortController().signal]) {
      const started = performance.now();
      const error = await openaiModel('gpt-5.4', { client, timeoutMs: 100, maxRetries: 0 })
        .generate({ messages: [{ role: 'user', content: 'hi' }], signal })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as Error).message).toMatch(/timed out after 100 ms/);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });

  it('raises a ConfigError naming OPENAI_API_KEY at the first call when no key is set', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const keyless = openaiModel('gpt-5.4', { baseURL: server.openaiBaseURL });
      const error = await keyless
        .generate({ messages: [{ role: 'user', content: 'hi' }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('OPENAI_API_KEY');
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('reads the key and endpoint from OPENAI_API_KEY and OPENAI_BASE_URL when no option gives them', async () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = 'env-key';
    process.env.OPENAI_BASE_URL = server.openaiBaseURL;
    try {
      server.enqueue({ text: 'from env' });
      const response = await openaiModel('gpt-5.4', { maxRetries: 0 }).generate({
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(response.text).toBe('from env');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer env-key');
    } finally {
      for (const [name, value] of [
        ['OPENAI_API_KEY', saved.key],
        ['OPENAI_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('sends a placeholder key to servers that need none', async () => {
    const saved = process.env.OLLAMA_API_KEY;
    delete process.env.OLLAMA_API_KEY;
    try {
      server.enqueue({ text: 'local answer' });
      const local = openaiModel('llama3.2', {
        provider: 'ollama',
        apiKeyEnv: 'OLLAMA_API_KEY',
        requireApiKey: false,
        baseURL: server.openaiBaseURL,
      });
      expect(local.id).toBe('ollama:llama3.2');
      expect((await local.generate({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe(
        'local answer',
      );
    } finally {
      if (saved !== undefined) process.env.OLLAMA_API_KEY = saved;
    }
  });

  it('rejects bad options at construction', () => {
    expect(() => openaiModel('')).toThrow(ConfigError);
    expect(() => openaiModel('gpt-5.4', { maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => openaiModel('gpt-5.4', { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
