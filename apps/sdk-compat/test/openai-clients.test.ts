// A user's own `openai` client, of the pinned major (7) and of the one before (6, installed here
// under the alias `openai6`), runs through swarm's OpenAI provider and embedder against the mock
// provider server: answers, tool round trips, retries classified by the client's own error
// classes, and a stalled body cut at the timeout.

import { getEventListeners } from 'node:events';
import { AbortError, Agent, ModelError, openaiModel, tool, toolDefinition } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { openaiEmbedder } from '@swarm/embeddings';
import OpenAI from 'openai';
import OpenAI6 from 'openai6';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Look up an invoice.',
  parameters: z.object({ invoice_id: z.string() }),
  execute: ({ invoice_id }) => `invoice ${invoice_id}: charged twice`,
});

let server: MockProviderServer;
beforeEach(async () => {
  server = await mockProviderServer();
});
afterEach(async () => {
  await server.close();
});

// Each client as its user makes it: SDK retries left on (swarm turns them off per request).
const clients = {
  'openai 7': () => new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL }),
  'openai 6': () => new OpenAI6({ apiKey: 'k', baseURL: server.openaiBaseURL }),
};

describe.each(Object.keys(clients) as (keyof typeof clients)[])('an %s client', (name) => {
  const client = () => clients[name]();

  it('runs an Agent through a tool call and its answer', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }] },
      { text: 'Invoice 42 was charged twice; I will refund one charge.' },
    );
    const agent = new Agent({
      name: 'billing',
      instructions: 'Handle billing.',
      model: openaiModel('gpt-5.4', { client: client() }),
      tools: [lookupInvoice],
    });
    const { signal } = new AbortController();

    const result = await agent.run('I was charged twice for invoice 42', { signal });

    expect(result.output).toBe('Invoice 42 was charged twice; I will refund one charge.');
    expect(result.toolCalls).toMatchObject([
      { call: { name: 'lookup_invoice' }, result: 'invoice 42: charged twice', isError: false },
    ]);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    const second = server.requests[1]?.body as { messages: Record<string, unknown>[] };
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_invoice' } }],
    });
    expect(second.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'invoice 42: charged twice',
    });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('streams text and a tool call', async () => {
    server.enqueue({
      text: 'Looking it up.',
      toolCalls: [{ name: 'lookup_invoice', arguments: { invoice_id: '7' } }],
    });
    const events = [];
    for await (const event of openaiModel('gpt-5.4', { client: client() }).stream!({
      messages: [{ role: 'user', content: 'invoice 7?' }],
      tools: [toolDefinition(lookupInvoice)],
    })) {
      events.push(event);
    }
    const finish = events.at(-1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') return;
    expect(finish.response.text).toBe('Looking it up.');
    expect(finish.response.toolCalls).toMatchObject([
      { name: 'lookup_invoice', arguments: { invoice_id: '7' } },
    ]);
    expect(finish.response.finishReason).toBe('tool-calls');
  });

  it("retries a 429 with swarm's retries (the client's own are off) and fails a 400 at once with its status", async () => {
    const model = openaiModel('gpt-5.4', { client: client(), maxRetries: 1 });
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 10 }, { text: 'After the wait.' });
    const answer = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.text).toBe('After the wait.');
    expect(server.requests).toHaveLength(2);

    // Only an error of the client's own SDK carries a status swarm can read.
    server.enqueue({ fault: 'server-error', status: 400 });
    const error = await model
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(server.requests).toHaveLength(3);
  });

  it('cuts a body that stalls after its headers at the timeout, and at the caller abort', async () => {
    server.enqueue({ fault: 'stall' });
    const model = openaiModel('gpt-5.4', { client: client(), timeoutMs: 100, maxRetries: 0 });
    const timedOut = await model
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ModelError);
    expect((timedOut as Error).message).toMatch(/timed out after 100 ms/);
    // The request was cut, not abandoned: the server sees its connection close.
    await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });

    server.enqueue({ fault: 'stall' });
    const controller = new AbortController();
    const pending = openaiModel('gpt-5.4', { client: client() }).generate({
      messages: [{ role: 'user', content: 'hi' }],
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(server.openResponses).toBe(1), { timeout: 5_000, interval: 5 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('embeds through openaiEmbedder', async () => {
    const embedder = openaiEmbedder('text-embedding-3-small', { client: client(), dimensions: 8 });
    const vectors = await embedder.embed(['refund', 'invoice']);
    expect(vectors).toHaveLength(2);
    expect(vectors.map((vector) => vector.length)).toEqual([8, 8]);
    expect(server.requests.at(-1)).toMatchObject({
      api: 'embeddings',
      body: { model: 'text-embedding-3-small', input: ['refund', 'invoice'], dimensions: 8 },
    });
  });
});
