import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4StreamPart,
  type LanguageModelV4Usage,
  LoadAPIKeyError,
} from '@ai-sdk/provider';
import {
  Agent,
  ConfigError,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  resolveModel,
  runStream,
  SwarmError,
  type SwarmEvent,
  tool,
} from '@swarm/core';
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkModel } from './ai-sdk-model.js';
import { deltasByAgent, finish, generated, streamed, textParts, usage } from './test-support.js';

const weather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

// No waits between retries in these tests: the policy's timing is core's and tested there.
const fast = { initialRetryDelayMs: 0 };

describe('aiSdkModel: the request', () => {
  it('sends the system prompt, typed turns, tools, tool choice and settings as AI SDK call options', async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    const model = aiSdkModel(languageModel, {
      providerOptions: { mistral: { safePrompt: true } },
      headers: { 'x-team': 'support' },
    });
    const request: ModelRequest = {
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'user', name: 'planner', content: 'Check both cities.' },
        {
          role: 'assistant',
          content: 'Looking.',
          toolCalls: [
            { id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'c2', name: 'get_weather', arguments: { city: 'Rome' } },
          ],
        },
        { role: 'tool', toolCallId: 'c1', content: 'Sunny in Paris' },
        { role: 'tool', toolCallId: 'c2', content: 'Rain in Rome' },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city.',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      toolChoice: { name: 'get_weather' },
      temperature: 0.2,
      maxTokens: 300,
    };
    await model.generate(request);

    const call = languageModel.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      { role: 'user', content: [{ type: 'text', text: '[planner] Check both cities.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'text', value: 'Sunny in Paris' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'get_weather',
            output: { type: 'text', value: 'Rain in Rome' },
          },
        ],
      },
    ]);
    expect(call.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'The weather in a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ]);
    expect(call.toolChoice).toEqual({ type: 'tool', toolName: 'get_weather' });
    expect(call.temperature).toBe(0.2);
    expect(call.maxOutputTokens).toBe(300);
    expect(call.providerOptions).toEqual({ mistral: { safePrompt: true } });
    expect(call.headers).toEqual({ 'x-team': 'support' });
    expect(call.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it("maps every tool choice: 'auto', 'required', 'none' and a named tool", async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    const model = aiSdkModel(languageModel);
    const tools = [{ name: 'pick', description: 'Pick one.', parameters: { type: 'object' } }];
    for (const toolChoice of ['auto', 'required', 'none', { name: 'pick' }] as const) {
      await model.generate({ messages: [{ role: 'user', content: 'go' }], tools, toolChoice });
    }
    expect(languageModel.doGenerateCalls.map((c) => c.toolChoice)).toEqual([
      { type: 'auto' },
      { type: 'required' },
      { type: 'none' },
      { type: 'tool', toolName: 'pick' },
    ]);
  });

  it('sends neither tools nor a tool choice when the request has no tools', async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    await aiSdkModel(languageModel).generate({
      messages: [{ role: 'user', content: 'hi' }],
      toolChoice: 'required',
    });
    expect(languageModel.doGenerateCalls[0]!.tools).toBeUndefined();
    expect(languageModel.doGenerateCalls[0]!.toolChoice).toBeUndefined();
  });

  it('refuses a tool turn that answers no earlier call with a ConfigError, before calling the model', async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    const model = aiSdkModel(languageModel);
    const request: ModelRequest = { messages: [{ role: 'tool', toolCallId: 'lost', content: 'result' }] };
    await expect(model.generate(request)).rejects.toThrow(ConfigError);
    await expect(model.generate(request)).rejects.toThrow(/"lost", which no earlier assistant turn made/);
    expect(languageModel.doGenerateCalls).toHaveLength(0);
  });
});

describe('aiSdkModel: the answer', () => {
  it('returns the text, the tool calls swarm runs, usage with cached and reasoning tokens, and the model id', async () => {
    const languageModel = new MockLanguageModelV4({
      provider: 'mistral.chat',
      modelId: 'mistral-large-latest',
      doGenerate: generated(
        [
          { type: 'reasoning', text: 'The user wants weather.' },
          { type: 'text', text: 'Checking ' },
          { type: 'text', text: 'now.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
          // Executed by the provider (a hosted search): not swarm's to run.
          {
            type: 'tool-call',
            toolCallId: 'p1',
            toolName: 'web_search',
            input: '{}',
            providerExecuted: true,
          },
        ],
        {
          finishReason: finish('tool-calls', 'tool_calls'),
          usage: usage(1200, 340, { cacheRead: 1000, cacheWrite: 50, reasoning: 200 }),
          modelId: 'mistral-large-2511',
        },
      ),
    });
    const model = aiSdkModel(languageModel);
    expect(model.id).toBe('mistral:mistral-large-latest');
    const response = await model.generate({ messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(response).toEqual({
      text: 'Checking now.',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }],
      usage: {
        inputTokens: 1200,
        outputTokens: 340,
        cachedTokens: 1000,
        reasoningTokens: 200,
        totalTokens: 1540,
      },
      finishReason: 'tool-calls',
      modelId: 'mistral-large-2511',
    });
  });

  it('keeps tool input that is not a JSON object as invalidArguments, for the agent to send back', async () => {
    const languageModel = new MockLanguageModelV4({
      doGenerate: generated([
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city": Par' },
      ]),
    });
    const response = await aiSdkModel(languageModel).generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.toolCalls).toEqual([
      { id: 'c1', name: 'get_weather', arguments: {}, invalidArguments: '{"city": Par' },
    ]);
  });

  it('adds up usage from its parts when the provider gives no totals, and estimates it when it gives nothing', async () => {
    const parts = new MockLanguageModelV4({
      doGenerate: generated([{ type: 'text', text: 'hi' }], {
        usage: {
          inputTokens: { total: undefined, noCache: 30, cacheRead: 70, cacheWrite: undefined },
          outputTokens: { total: undefined, text: 8, reasoning: 4 },
        },
      }),
    });
    expect((await aiSdkModel(parts).generate({ messages: [{ role: 'user', content: 'x' }] })).usage).toEqual({
      inputTokens: 100,
      outputTokens: 12,
      cachedTokens: 70,
      reasoningTokens: 4,
      totalTokens: 112,
    });

    const none = new MockLanguageModelV4({
      doGenerate: generated([{ type: 'text', text: 'A twenty-char answer' }], {
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
      }),
    });
    const estimated = (
      await aiSdkModel(none).generate({ messages: [{ role: 'user', content: 'Sixteen chars!!!' }] })
    ).usage;
    expect(estimated).toEqual({
      inputTokens: 4,
      outputTokens: 5,
      cachedTokens: 0,
      reasoningTokens: 0,
      totalTokens: 9,
      estimated: true,
    });
  });

  it('estimates, flagged, the usage of a provider whose counts are not numbers (markup never reaches totals)', async () => {
    const hostile = new MockLanguageModelV4({
      doGenerate: generated([{ type: 'text', text: 'A twenty-char answer' }], {
        usage: {
          inputTokens: {
            total: '<script>alert(1)</script>' as unknown as number,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: 5, text: undefined, reasoning: undefined },
        },
      }),
    });
    const usage = (
      await aiSdkModel(hostile).generate({ messages: [{ role: 'user', content: 'Sixteen chars!!!' }] })
    ).usage;
    expect(usage).toEqual({
      inputTokens: 4,
      outputTokens: 5,
      cachedTokens: 0,
      reasoningTokens: 0,
      totalTokens: 9,
      estimated: true,
    });
  });

  it('estimates, flagged, a usage of any other shape ({}, counts that are not numbers, not an object) instead of failing the call', async () => {
    const shapes: unknown[] = [
      {},
      { inputTokens: null, outputTokens: 'many' },
      'n/a',
      7,
      { inputTokens: {} },
    ];
    for (const shape of shapes) {
      const odd = new MockLanguageModelV4({
        doGenerate: generated([{ type: 'text', text: 'A twenty-char answer' }], {
          usage: shape as LanguageModelV4Usage,
        }),
      });
      const response = await aiSdkModel(odd).generate({
        messages: [{ role: 'user', content: 'Sixteen chars!!!' }],
      });
      expect(response.text).toBe('A twenty-char answer');
      expect(response.usage).toEqual({
        inputTokens: 4,
        outputTokens: 5,
        cachedTokens: 0,
        reasoningTokens: 0,
        totalTokens: 9,
        estimated: true,
      });
    }
    // An older specification's bare numbers are read as they are.
    const bare = new MockLanguageModelV4({
      doGenerate: generated([{ type: 'text', text: 'x' }], {
        usage: { inputTokens: 12, outputTokens: 3 } as unknown as LanguageModelV4Usage,
      }),
    });
    expect((await aiSdkModel(bare).generate({ messages: [{ role: 'user', content: 'x' }] })).usage).toEqual({
      inputTokens: 12,
      outputTokens: 3,
      cachedTokens: 0,
      reasoningTokens: 0,
      totalTokens: 15,
    });
    // And a stream whose finish part carries `usage: {}` ends with an estimate, too.
    const streamedOdd = new MockLanguageModelV4({
      doStream: streamed(
        textParts(
          ['A twenty-', 'char answer'],
          [{ type: 'finish', finishReason: finish('stop'), usage: {} as LanguageModelV4Usage }],
        ),
      ),
    });
    let final: ModelResponse | undefined;
    for await (const event of aiSdkModel(streamedOdd).stream!({
      messages: [{ role: 'user', content: 'Sixteen chars!!!' }],
    })) {
      if (event.type === 'finish') final = event.response;
    }
    expect(final?.usage).toMatchObject({ estimated: true, totalTokens: 9 });
  });

  it('maps the finish reasons, and retries an interrupted answer as a cut stream', async () => {
    const reasons = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'] as const;
    for (const reason of reasons) {
      const languageModel = new MockLanguageModelV4({
        doGenerate: generated([{ type: 'text', text: 'x' }], { finishReason: finish(reason) }),
      });
      const response = await aiSdkModel(languageModel).generate({
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(response.finishReason).toBe(reason);
    }
    const interrupted = new MockLanguageModelV4({
      doGenerate: [
        generated([{ type: 'text', text: 'half' }], { finishReason: finish('interrupted') }),
        generated([{ type: 'text', text: 'whole' }]),
      ],
    });
    const response = await aiSdkModel(interrupted, fast).generate({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(response.text).toBe('whole');
    expect(interrupted.doGenerateCalls).toHaveLength(2);
  });
});

describe('aiSdkModel: errors and retries', () => {
  const rateLimited = (retryAfterMs: string) =>
    new APICallError({
      message: 'Rate limit reached',
      url: 'https://api.example.com/v1/chat',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after-ms': retryAfterMs },
    });

  it('retries an APICallError the provider marks retryable (429), honouring its retry-after-ms, then answers', async () => {
    let calls = 0;
    const languageModel = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        if (calls === 1) throw rateLimited('0');
        return generated([{ type: 'text', text: 'after the wait' }]);
      },
    });
    const response = await aiSdkModel(languageModel).generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.text).toBe('after the wait');
    expect(calls).toBe(2);
  });

  it('fails at once when the wait asked for is longer than maxRetryDelayMs, saying how long', async () => {
    const languageModel = new MockLanguageModelV4({
      doGenerate: async () => {
        throw rateLimited('120000');
      },
    });
    const error = await aiSdkModel(languageModel, { maxRetryDelayMs: 1000 })
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 120000, status: 429 });
    expect(languageModel.doGenerateCalls).toHaveLength(1);
  });

  it('does not retry a 400: a ModelError with the status, not retryable, the AI SDK error as its cause', async () => {
    const badRequest = new APICallError({
      message: 'Invalid schema for function get_weather',
      url: 'https://api.example.com/v1/chat',
      requestBodyValues: {},
      statusCode: 400,
    });
    const languageModel = new MockLanguageModelV4({
      provider: 'acme.chat',
      doGenerate: async () => {
        throw badRequest;
      },
    });
    const error = await aiSdkModel(languageModel, fast)
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      status: 400,
      retryable: false,
      provider: 'acme.chat',
      message: 'acme.chat: Invalid schema for function get_weather',
    });
    expect((error as ModelError).cause).toBe(badRequest);
    expect(languageModel.doGenerateCalls).toHaveLength(1);
  });

  it('gives up after maxRetries on a server error that persists, with a retryable ModelError', async () => {
    const languageModel = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new APICallError({ message: 'Overloaded', url: 'u', requestBodyValues: {}, statusCode: 503 });
      },
    });
    const error = await aiSdkModel(languageModel, { ...fast, maxRetries: 3 })
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL', status: 503, retryable: true });
    expect(languageModel.doGenerateCalls).toHaveLength(4);
  });

  it('turns a missing API key into a ConfigError naming the variable, without retrying', async () => {
    const languageModel = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new LoadAPIKeyError({
          message: 'Mistral API key is missing. Pass it using the MISTRAL_API_KEY environment variable.',
        });
      },
    });
    const error = await aiSdkModel(languageModel)
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('MISTRAL_API_KEY');
    expect(languageModel.doGenerateCalls).toHaveLength(1);
  });

  it('refuses what is not an AI SDK v4 language model with a ConfigError saying what it got', () => {
    expect(() => aiSdkModel('mistral-large-latest' as unknown as LanguageModelV4)).toThrow(
      /got the string "mistral-large-latest"/,
    );
    const v3 = new MockLanguageModelV3() as unknown as LanguageModelV4;
    expect(() => aiSdkModel(v3)).toThrow(/got specificationVersion "v3"/);
    const model = new MockLanguageModelV4();
    expect(() => aiSdkModel(model, { maxRetries: -1 })).toThrow(ConfigError);
    expect(() => aiSdkModel(model, { id: ' ' })).toThrow(/id must be a non-empty string/);
  });
});

describe('aiSdkModel: streaming and abort', () => {
  it('streams text deltas and tool calls, then the whole response', async () => {
    const languageModel = new MockLanguageModelV4({
      doStream: streamed([
        { type: 'response-metadata', modelId: 'served-model' },
        ...textParts(['Let me ', 'check.']),
        { type: 'tool-input-start', id: 'c1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"city":"Oslo"}' },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        {
          type: 'finish',
          finishReason: finish('tool-calls'),
          usage: usage(50, 12, { cacheRead: 20, reasoning: 3 }),
        },
      ]),
    });
    const events = [];
    for await (const event of aiSdkModel(languageModel).stream!({
      messages: [{ role: 'user', content: 'Oslo?' }],
    })) {
      events.push(event);
    }
    expect(events).toEqual([
      { type: 'text-delta', delta: 'Let me ' },
      { type: 'text-delta', delta: 'check.' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } } },
      {
        type: 'finish',
        response: {
          text: 'Let me check.',
          toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 50, outputTokens: 12, cachedTokens: 20, reasoningTokens: 3, totalTokens: 62 },
          finishReason: 'tool-calls',
          modelId: 'served-model',
        },
      },
    ]);
  });

  it("streams an agent's answer as model.delta events through a tool round trip", async () => {
    const languageModel = new MockLanguageModelV4({
      doStream: [
        streamed([
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Lima"}' },
          { type: 'finish', finishReason: finish('tool-calls'), usage: usage(20, 5) },
        ]),
        streamed(
          textParts(
            ['It is ', 'sunny in Lima.'],
            [{ type: 'finish', finishReason: finish('stop'), usage: usage(40, 6) }],
          ),
        ),
      ],
    });
    const agent = new Agent({ name: 'forecaster', model: aiSdkModel(languageModel), tools: [weather] });
    const run = runStream((options) => agent.run('Weather in Lima?', options));
    const events: SwarmEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;

    expect(result.output).toBe('It is sunny in Lima.');
    expect(result.usage).toMatchObject({ inputTokens: 60, outputTokens: 11 });
    expect(deltasByAgent(events)).toEqual({ forecaster: 'It is sunny in Lima.' });
    expect(events.find((e) => e.type === 'tool.result')).toMatchObject({ result: 'Sunny in Lima' });
    // The second call carries the first one's tool call and its result.
    expect(languageModel.doStreamCalls[1]!.prompt.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Lima' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'text', value: 'Sunny in Lima' },
          },
        ],
      },
    ]);
  });

  it('aborts mid-stream: the signal reaches the AI SDK model, its stream is cancelled, even one that ignores its signal', async () => {
    let pulls = 0;
    let cancelled = false;
    // A stream that sends one delta, then nothing: it never heeds its signal.
    const stalled = new ReadableStream<LanguageModelV4StreamPart>({
      pull(controller) {
        if (pulls++ === 0) {
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon' });
          return;
        }
        return new Promise(() => undefined);
      },
      cancel() {
        cancelled = true;
      },
    });
    const languageModel = new MockLanguageModelV4({ doStream: { stream: stalled } });
    const controller = new AbortController();
    const stream = aiSdkModel(languageModel).stream!({
      messages: [{ role: 'user', content: 'A story.' }],
      signal: controller.signal,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        if (event.type === 'text-delta') {
          seen.push(event.delta);
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Once upon']);
    expect(SwarmError.isInstance(error) && error.code).toBe('ABORTED');
    expect(languageModel.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
    expect(cancelled).toBe(true);
  });

  it('aborts a generate call: the AI SDK model sees its signal fire, the call rejects with AbortError', async () => {
    let seen: AbortSignal | undefined;
    const languageModel = new MockLanguageModelV4({
      doGenerate: (options) => {
        seen = options.abortSignal;
        return new Promise(() => undefined);
      },
    });
    const controller = new AbortController();
    const pending = aiSdkModel(languageModel).generate({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(seen?.aborted).toBe(true);
  });

  it('retries a stream that fails before its first delta, and rethrows one that fails after', async () => {
    const failing = (): LanguageModelV4StreamPart[] => [
      { type: 'error', error: { message: 'overloaded', isRetryable: true } },
    ];
    const retried = new MockLanguageModelV4({
      doStream: [
        streamed(failing()),
        streamed(textParts(['fine'], [{ type: 'finish', finishReason: finish('stop'), usage: usage(1, 1) }])),
      ],
    });
    const texts: string[] = [];
    for await (const event of aiSdkModel(retried, fast).stream!({
      messages: [{ role: 'user', content: 'x' }],
    })) {
      if (event.type === 'finish') texts.push(event.response.text);
    }
    expect(texts).toEqual(['fine']);
    expect(retried.doStreamCalls).toHaveLength(2);

    const cut = new MockLanguageModelV4({
      doStream: streamed([
        ...textParts(['half an ']),
        { type: 'error', error: { message: 'overloaded', isRetryable: true } },
      ]),
    });
    const error = await (async () => {
      for await (const _ of aiSdkModel(cut, fast).stream!({ messages: [{ role: 'user', content: 'x' }] })) {
        // reads until the error
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL', retryable: true, message: 'mock-provider: overloaded' });
    expect(cut.doStreamCalls).toHaveLength(1);
  });

  it('treats a stream that ends without its finish part as a retryable fault', async () => {
    const languageModel = new MockLanguageModelV4({ doStream: streamed(textParts(['no end'])) });
    const error = await (async () => {
      for await (const _ of aiSdkModel(languageModel, { ...fast, maxRetries: 0 }).stream!({
        messages: [{ role: 'user', content: 'x' }],
      })) {
        // reads until the error
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL', retryable: true });
    expect((error as Error).message).toContain('the stream ended before the answer finished');
  });
});

describe('aiSdkModel wherever a model string goes', () => {
  it('passes through resolveModel as it is, and an Agent takes it as its model', async () => {
    const model = aiSdkModel(
      new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'Hello.' }]) }),
    );
    expect(resolveModel(model)).toBe(model);
    const agent = new Agent({ name: 'greeter', model });
    expect(agent.model).toBe(model);
    expect((await agent.run('Say hello.')).output).toBe('Hello.');
  });
});
