import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { tool } from '../primitives/tool.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';

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

describe('a full tool round trip inside Agent, through the real SDKs', () => {
  it('works over OpenAI Chat Completions', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }] },
      { text: 'Invoice 42 was charged twice; I will refund one charge.' },
    );
    const model = openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const agent = new Agent({
      name: 'billing',
      instructions: 'Handle billing.',
      model,
      tools: [lookupInvoice],
    });

    const result = await agent.run('I was charged twice for invoice 42');

    expect(result.output).toBe('Invoice 42 was charged twice; I will refund one charge.');
    expect(result.llmCalls).toBe(2);
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
  });

  it('works over Anthropic Messages', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'toolu_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }] },
      { text: 'Refunding the duplicate charge.' },
    );
    const model = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: server.anthropicBaseURL,
      maxRetries: 0,
    });
    const agent = new Agent({
      name: 'billing',
      instructions: 'Handle billing.',
      model,
      tools: [lookupInvoice],
    });

    const result = await agent.run('I was charged twice for invoice 42');

    expect(result.output).toBe('Refunding the duplicate charge.');
    const second = server.requests[1]?.body as {
      system: unknown;
      messages: { role: string; content: unknown }[];
    };
    expect(second.messages.at(-2)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_invoice', input: { invoice_id: '42' } }],
    });
    expect(second.messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'invoice 42: charged twice' }],
    });
  });
});

describe("an Agent keeps a turn's reasoning and sends it back, through the real SDKs", () => {
  it('Anthropic: the turn after thinking + a tool call carries the signed thinking block first', async () => {
    server.enqueue(
      {
        reasoning: { text: 'The invoice tool will tell.', signature: 'sig-42' },
        toolCalls: [{ id: 'toolu_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }],
      },
      { text: 'Refunding the duplicate charge.' },
    );
    const model = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: server.anthropicBaseURL,
      maxRetries: 0,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    const agent = new Agent({ name: 'billing', model, tools: [lookupInvoice] });

    const result = await agent.run('I was charged twice for invoice 42');

    expect(result.messages[0]).toMatchObject({
      role: 'assistant',
      reasoning: { text: 'The invoice tool will tell.' },
    });
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    expect((assistant.content as Record<string, unknown>[])[0]).toEqual({
      type: 'thinking',
      thinking: 'The invoice tool will tell.',
      signature: 'sig-42',
    });
  });

  it('DeepSeek: the turn after reasoning + a tool call carries reasoning_content', async () => {
    server.enqueue(
      {
        reasoning: { text: 'Look the invoice up first.' },
        toolCalls: [{ id: 'call_1', name: 'lookup_invoice', arguments: { invoice_id: '42' } }],
      },
      { text: 'Refunding the duplicate charge.' },
    );
    const model = openaiModel('deepseek-reasoner', {
      provider: 'deepseek',
      apiKey: 'k',
      baseURL: server.openaiBaseURL,
      maxRetries: 0,
    });
    const agent = new Agent({ name: 'billing', model, tools: [lookupInvoice] });

    await agent.run('I was charged twice for invoice 42');

    const second = server.requests[1]?.body as { messages: Record<string, unknown>[] };
    expect(second.messages.find((m) => m.role === 'assistant')).toMatchObject({
      reasoning_content: 'Look the invoice up first.',
    });
  });
});
