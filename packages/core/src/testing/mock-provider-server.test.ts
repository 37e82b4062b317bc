import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockProviderServer, type MockRequest, mockProviderServer } from './mock-provider-server.js';

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

function post(path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
}

type ErrorBody = { error: { message: string; type: string } };
type EmbeddingsBody = { data: { embedding: number[] }[] };

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The `data:` payloads of an SSE body, with the `event:` name when there is one. */
function sseEvents(text: string): { event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6) ?? '';
      return event ? { event, data } : { data };
    });
}

const chat = { model: 'gpt-5.4', messages: [{ role: 'user', content: 'hi' }] };
const messages = { model: 'claude-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

describe('mockProviderServer', () => {
  it('listens on 127.0.0.1 and exposes the base URLs of both SDKs', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openaiBaseURL).toBe(`${server.url}/v1`);
    expect(server.anthropicBaseURL).toBe(server.url);
  });

  it('answers an OpenAI chat completion with text, tool calls and detailed usage', async () => {
    server.enqueue({
      text: 'Calling.',
      toolCalls: [{ id: 'call_9', name: 'lookup', arguments: { q: 'x' } }],
      usage: { inputTokens: 50, outputTokens: 10, cachedTokens: 20, reasoningTokens: 4 },
    });
    const response = await post('/v1/chat/completions', chat);
    const body = await json<OpenAI.Chat.ChatCompletion>(response);
    expect(response.status).toBe(200);
    expect(body.model).toBe('gpt-5.4');
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'Calling.',
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
        ],
      },
    });
    expect(body.usage).toMatchObject({
      prompt_tokens: 50,
      completion_tokens: 10,
      total_tokens: 60,
      prompt_tokens_details: { cached_tokens: 20 },
      completion_tokens_details: { reasoning_tokens: 4 },
    });
  });

  it('streams OpenAI chunks with a usage chunk and data: [DONE] at the end', async () => {
    server.enqueue({ text: 'a b c' });
    const response = await post('/v1/chat/completions', {
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.data) as OpenAI.Chat.ChatCompletionChunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('a b c');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('answers an Anthropic message with text and tool_use blocks', async () => {
    server.enqueue({ text: 'Sure.', toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } }] });
    const message = await json<Anthropic.Message>(await post('/v1/messages', messages));
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
      ],
    });
  });

  it('streams Anthropic events in the documented order', async () => {
    server.enqueue({ text: 'Hi there', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] });
    const response = await post('/v1/messages', { ...messages, stream: true });
    const names = sseEvents(await response.text()).map((event) => event.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const blocks = names.filter((name) => name === 'content_block_start' || name === 'content_block_stop');
    expect(blocks).toEqual([
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
    ]);
    expect(names.filter((name) => name === 'content_block_delta').length).toBeGreaterThanOrEqual(3);
  });

  it('answers a 429 with Retry-After headers and records the faulted request', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 250 });
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after-ms')).toBe('250');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(server.requests).toHaveLength(1);
  });

  it('answers a 500 for a server-error fault, in each API format', async () => {
    server.enqueue({ fault: 'server-error' }, { fault: 'server-error' });
    const openai = await post('/v1/chat/completions', chat);
    const anthropic = await post('/v1/messages', messages);
    expect(openai.status).toBe(500);
    expect((await json<ErrorBody>(openai)).error.type).toBe('server_error');
    expect(anthropic.status).toBe(500);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('answers 200 with a body that does not parse for a malformed fault', async () => {
    server.enqueue({ fault: 'malformed' });
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('fails loudly with a 500 when the script is empty', async () => {
    const response = await post('/v1/chat/completions', chat);
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect((await json<ErrorBody>(response)).error.message).toContain(
      'mockProviderServer: no scripted response left',
    );
  });

  it('keeps a hung request open until the client gives up', async () => {
    server.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    const pending = post('/v1/chat/completions', chat, { signal: controller.signal });
    const outcome = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((resolve) => setTimeout(resolve, 100, 'still waiting')),
    ]);
    expect(outcome).toBe('still waiting');
    controller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('closes promptly even with a hung request open', async () => {
    server.enqueue({ fault: 'hang' });
    const pending = post('/v1/chat/completions', chat).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = Date.now();
    await server.close();
    // A hung request left open would keep close() waiting forever; 5 s is room for a busy machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await pending).toBeInstanceOf(Error);
    server = await mockProviderServer();
  });

  it('waits latencyMs before answering', async () => {
    await server.close();
    server = await mockProviderServer({ latencyMs: 80 });
    server.enqueue({ text: 'slow' });
    const started = Date.now();
    await post('/v1/chat/completions', chat);
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('asks the handler once the script is empty, passing the parsed request', async () => {
    await server.close();
    const seen: MockRequest[] = [];
    server = await mockProviderServer({
      handler: (request) => {
        seen.push(request);
        return { text: `echo: ${request.api}` };
      },
    });
    server.enqueue({ text: 'scripted first' });
    const first = await json<OpenAI.Chat.ChatCompletion>(await post('/v1/chat/completions', chat));
    const second = await json<{ content: { text: string }[] }>(
      await post('/v1/messages', { ...messages, stream: false }),
    );
    expect(first.choices[0]?.message.content).toBe('scripted first');
    expect(second.content[0]?.text).toBe('echo: anthropic');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ api: 'anthropic', stream: false, body: { model: 'claude-opus-4-7' } });
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests.map((request) => request.api)).toEqual(['openai', 'anthropic']);
  });

  it('returns deterministic unit embeddings of the default 64 dimensions, with usage', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const first = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['tax law', 'cooking'],
    });
    const again = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'tax law' });

    expect(first.data).toHaveLength(2);
    expect(first.data[0]?.embedding).toHaveLength(64);
    const norm = Math.hypot(...(first.data[0]?.embedding ?? []));
    expect(norm).toBeCloseTo(1, 5);
    expect(again.data[0]?.embedding).toEqual(first.data[0]?.embedding);
    expect(first.data[1]?.embedding).not.toEqual(first.data[0]?.embedding);
    expect(first.usage.prompt_tokens).toBeGreaterThan(0);
    expect(server.requests.map((request) => request.api)).toEqual(['embeddings', 'embeddings']);
  });

  it('gives texts that share words closer embeddings than unrelated texts', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const { data } = await client.embeddings.create({
      model: 'm',
      input: ['delaware tax filing', 'tax filing deadline', 'chocolate cake recipe'],
    });
    const [a, b, c] = data.map((item) => item.embedding);
    const dot = (x: number[] = [], y: number[] = []) =>
      x.reduce((sum, value, i) => sum + value * (y[i] ?? 0), 0);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  it('honours embeddingDimensions, the request dimensions and a custom embed function', async () => {
    await server.close();
    server = await mockProviderServer({ embeddingDimensions: 8 });
    const sized = await json<EmbeddingsBody>(
      await post('/v1/embeddings', { model: 'm', input: 'x', encoding_format: 'float' }),
    );
    expect(sized.data[0]?.embedding).toHaveLength(8);
    const asked = await json<EmbeddingsBody>(
      await post('/v1/embeddings', { model: 'm', input: 'x', dimensions: 3 }),
    );
    expect(asked.data[0]?.embedding).toHaveLength(3);

    await server.close();
    server = await mockProviderServer({ embed: (texts) => texts.map((text) => [text.length, 0]) });
    const custom = await json<EmbeddingsBody>(
      await post('/v1/embeddings', { model: 'm', input: ['abc', 'de'] }),
    );
    expect(custom.data.map((item) => item.embedding)).toEqual([
      [3, 0],
      [2, 0],
    ]);
  });

  it('does not spend scripted chat steps on embedding requests', async () => {
    server.enqueue({ text: 'for the chat' });
    await post('/v1/embeddings', { model: 'm', input: 'x' });
    expect(server.remaining).toBe(1);
  });

  it('lets the handler fault an embedding request', async () => {
    await server.close();
    server = await mockProviderServer({ handler: () => ({ fault: 'rate-limit', retryAfterMs: 5 }) });
    const response = await post('/v1/embeddings', { model: 'm', input: 'x' });
    expect(response.status).toBe(429);
  });
});
