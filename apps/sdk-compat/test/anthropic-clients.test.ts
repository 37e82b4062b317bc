// A user's own `@anthropic-ai/sdk` client, of the pinned release (1.15) and of the one swarm
// pinned before (1.10, installed here under the alias `anthropic-1-10`), runs through swarm's
// Anthropic provider against the mock provider server, as the OpenAI clients do next door.

import { getEventListeners } from 'node:events';
import Anthropic from '@anthropic-ai/sdk';
import { AbortError, Agent, anthropicModel, ModelError, tool, toolDefinition } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import Anthropic110 from 'anthropic-1-10';
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

const clients = {
  '@anthropic-ai/sdk 1.15': () => new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseURL }),
  '@anthropic-ai/sdk 1.10': () => new Anthropic110({ apiKey: 'k', baseURL: server.anthropicBaseURL }),
};

describe.each(Object.keys(clients) as (keyof typeof clients)[])('an %s client', (name) => {
  const client = () => clients[name]();

  it('runs an Agent through a tool call and its answer', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'toolu_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }] },
      { text: 'Refunding the duplicate charge.' },
    );
    const agent = new Agent({
      name: 'billing',
      instructions: 'Handle billing.',
      model: anthropicModel('claude-opus-4-7', { client: client() }),
      tools: [lookupInvoice],
    });
    const { signal } = new AbortController();

    const result = await agent.run('I was charged twice for invoice 42', { signal });

    expect(result.output).toBe('Refunding the duplicate charge.');
    expect(result.toolCalls).toMatchObject([
      { call: { name: 'lookup_invoice' }, result: 'invoice 42: charged twice', isError: false },
    ]);
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_invoice', input: { invoice_id: '42' } }],
    });
    expect(second.messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'invoice 42: charged twice' }],
    });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('streams text and a tool call', async () => {
    server.enqueue({
      text: 'Looking it up.',
      toolCalls: [{ name: 'lookup_invoice', arguments: { invoice_id: '7' } }],
    });
    const events = [];
    for await (const event of anthropicModel('claude-opus-4-7', { client: client() }).stream!({
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
    const model = anthropicModel('claude-opus-4-7', { client: client(), maxRetries: 1 });
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 10 }, { text: 'After the wait.' });
    const answer = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.text).toBe('After the wait.');
    expect(server.requests).toHaveLength(2);

    // Only an error of the client's own SDK carries a status swarm can read.
    server.enqueue({ fault: 'server-error', status: 400 });
    const error = await model
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(server.requests).toHaveLength(3);
  });

  it('cuts a body that stalls after its headers at the timeout, and at the caller abort', async () => {
    server.enqueue({ fault: 'stall' });
    const model = anthropicModel('claude-opus-4-7', { client: client(), timeoutMs: 100, maxRetries: 0 });
    const timedOut = await model
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(timedOut).toBeInstanceOf(ModelError);
    expect((timedOut as Error).message).toMatch(/timed out after 100 ms/);
    await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });

    server.enqueue({ fault: 'stall' });
    const controller = new AbortController();
    const pending = anthropicModel('claude-opus-4-7', { client: client() }).generate({
      messages: [{ role: 'user', content: 'hi' }],
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(server.openResponses).toBe(1), { timeout: 5_000, interval: 5 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await vi.waitFor(() => expect(server.openResponses).toBe(0), { timeout: 5_000, interval: 5 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
