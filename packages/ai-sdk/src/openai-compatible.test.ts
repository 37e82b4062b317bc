// aiSdkModel over a real AI SDK provider package (@ai-sdk/openai-compatible) against swarm's mock
// provider server on loopback: the HTTP wire, its faults and its retries, end to end.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AbortError, Agent, type Model, ModelError, runStream, type SwarmEvent, tool } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AiSdkModelOptions, aiSdkModel } from './ai-sdk-model.js';
import { deltasByAgent } from './test-support.js';

let server: MockProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelOnMockServer(
  serverOptions: Parameters<typeof mockProviderServer>[0] = {},
  options: AiSdkModelOptions = {},
): Promise<{ server: MockProviderServer; model: Model }> {
  server = await mockProviderServer(serverOptions);
  const provider = createOpenAICompatible({
    name: 'mock',
    baseURL: server.openaiBaseURL,
    apiKey: 'test-key',
    includeUsage: true,
  });
  return { server, model: aiSdkModel(provider.chatModel('mock-model'), options) };
}

const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Finds an invoice by its number.',
  parameters: z.object({ number: z.string() }),
  execute: ({ number }) => ({ number, amount: 42, status: 'paid twice' }),
});

describe('aiSdkModel over @ai-sdk/openai-compatible, against the mock provider server', () => {
  it('runs an agent through a tool round trip on the Chat Completions wire', async () => {
    const { server, model } = await modelOnMockServer();
    server.enqueue(
      { toolCalls: [{ id: 'call_inv', name: 'lookup_invoice', arguments: { number: 'INV-7' } }] },
      {
        text: 'Invoice INV-7 was paid twice; a refund is on its way.',
        usage: { inputTokens: 90, outputTokens: 14 },
      },
    );
    const agent = new Agent({
      name: 'billing',
      instructions: 'You handle billing.',
      model,
      tools: [lookupInvoice],
    });
    const result = await agent.run('I was charged twice for INV-7.');

    expect(result.output).toBe('Invoice INV-7 was paid twice; a refund is on its way.');
    expect(result.toolCalls[0]).toMatchObject({
      call: { id: 'call_inv', name: 'lookup_invoice', arguments: { number: 'INV-7' } },
      result: '{"number":"INV-7","amount":42,"status":"paid twice"}',
    });
    const [first, second] = server.requests;
    expect(first!.body).toMatchObject({
      model: 'mock-model',
      messages: [
        { role: 'system', content: 'You handle billing.' },
        { role: 'user', content: 'I was charged twice for INV-7.' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup_invoice', description: 'Finds an invoice by its number.' },
        },
      ],
    });
    expect(second!.body.messages).toEqual([
      { role: 'system', content: 'You handle billing.' },
      { role: 'user', content: 'I was charged twice for INV-7.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_inv',
            type: 'function',
            function: { name: 'lookup_invoice', arguments: '{"number":"INV-7"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_inv',
        content: '{"number":"INV-7","amount":42,"status":"paid twice"}',
      },
    ]);
  });

  it('forces a tool on the wire: a named tool, required and none', async () => {
    const { server, model } = await modelOnMockServer({ handler: () => ({ text: 'ok' }) });
    const tools = [{ name: 'route', description: 'Routes.', parameters: { type: 'object', properties: {} } }];
    for (const toolChoice of [{ name: 'route' }, 'required', 'none'] as const) {
      await model.generate({ messages: [{ role: 'user', content: 'go' }], tools, toolChoice });
    }
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual([
      { type: 'function', function: { name: 'route' } },
      'required',
      'none',
    ]);
  });

  it('sends the options given to aiSdkModel with every call: provider options and headers', async () => {
    const { server, model } = await modelOnMockServer(
      { handler: () => ({ text: 'ok' }) },
      {
        providerOptions: { openaiCompatible: { user: 'team-7', reasoningEffort: 'low' } },
        headers: { 'x-team': 'support' },
      },
    );
    await model.generate({ messages: [{ role: 'user', content: 'x' }], temperature: 0.3 });
    expect(server.requests[0]!.body).toMatchObject({
      user: 'team-7',
      reasoning_effort: 'low',
      temperature: 0.3,
    });
    expect(server.requests[0]!.headers['x-team']).toBe('support');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('reads usage from the wire, cached and reasoning tokens included, and the finish reason', async () => {
    const { server, model } = await modelOnMockServer();
    server.enqueue({
      text: 'Long answer',
      finishReason: 'length',
      usage: { inputTokens: 2000, outputTokens: 500, cachedTokens: 1536, reasoningTokens: 320 },
    });
    const response = await model.generate({ messages: [{ role: 'user', content: 'x' }], maxTokens: 500 });
    expect(response.usage).toEqual({
      inputTokens: 2000,
      outputTokens: 500,
      cachedTokens: 1536,
      reasoningTokens: 320,
      totalTokens: 2500,
    });
    expect(response.finishReason).toBe('length');
    expect(server.requests[0]!.body.max_tokens).toBe(500);
  });

  it("streams an agent's answer as model.delta events, with the usage of the stream's last chunk", async () => {
    const { server, model } = await modelOnMockServer();
    server.enqueue({
      text: 'Three uses: holding paper, picking locks, resetting routers.',
      usage: { inputTokens: 30, outputTokens: 12, cachedTokens: 8, reasoningTokens: 2 },
    });
    const agent = new Agent({ name: 'helper', model });
    const run = runStream((options) => agent.run('Three uses of a paperclip?', options));
    const events: SwarmEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;

    const deltas = events.filter((e) => e.type === 'model.delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltasByAgent(events)).toEqual({
      helper: 'Three uses: holding paper, picking locks, resetting routers.',
    });
    expect(result.output).toBe('Three uses: holding paper, picking locks, resetting routers.');
    expect(result.usage).toEqual({
      inputTokens: 30,
      outputTokens: 12,
      cachedTokens: 8,
      reasoningTokens: 2,
      totalTokens: 42,
    });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('aborts mid-stream: the call rejects with AbortError and the HTTP request is closed', async () => {
    const { server, model } = await modelOnMockServer({ chunkDelayMs: 25 });
    server.enqueue({ text: 'one two three four five six seven eight nine ten eleven twelve' });
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of model.stream!({
        messages: [{ role: 'user', content: 'count' }],
        signal: controller.signal,
      })) {
        if (event.type === 'text-delta') {
          seen.push(event.delta);
          if (seen.length === 2) controller.abort();
        }
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual(['one ', 'two ']);
    await expect.poll(() => server.openResponses).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 429 and answers, waiting what retry-after-ms asks', async () => {
    const { server, model } = await modelOnMockServer();
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 5 }, { text: 'After the rate limit.' });
    const response = await model.generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.text).toBe('After the rate limit.');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 in a stream before any text, then streams the answer', async () => {
    const { server, model } = await modelOnMockServer();
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 5 }, { text: 'Streamed after the limit.' });
    let text = '';
    for await (const event of model.stream!({ messages: [{ role: 'user', content: 'x' }] })) {
      if (event.type === 'text-delta') text += event.delta;
    }
    expect(text).toBe('Streamed after the limit.');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400: a ModelError with status 400, not retryable', async () => {
    const { server, model } = await modelOnMockServer({}, { initialRetryDelayMs: 0 });
    server.enqueue({ fault: 'server-error', status: 400 });
    const error = await model
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false, provider: 'mock.chat' });
    expect((error as Error).message).toContain('mockProviderServer: server error');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 500 until maxRetries, then fails with a retryable ModelError', async () => {
    const { server, model } = await modelOnMockServer({}, { maxRetries: 2 });
    server.enqueue(
      { fault: 'server-error', retryAfterMs: 1 },
      { fault: 'server-error', retryAfterMs: 1 },
      { fault: 'server-error', retryAfterMs: 1 },
    );
    const error = await model
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL', status: 500, retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a connection reset before the headers as a network failure', async () => {
    const { server, model } = await modelOnMockServer({}, { initialRetryDelayMs: 1 });
    server.enqueue({ fault: 'reset', at: 'before-headers' }, { text: 'Reconnected.' });
    const response = await model.generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.text).toBe('Reconnected.');
    expect(server.requests).toHaveLength(2);
  });
});
