// Reasoning kept and sent back: a thinking + tool-call turn, then the request that follows it,
// through the real `openai` and `@anthropic-ai/sdk` clients against the loopback mock server. The
// assertions are on the request bodies the server received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';
import { assistantTurn } from './reasoning.js';

let server: MockProviderServer;

beforeAll(async () => {
  server = await mockProviderServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const fast = { maxRetries: 0, timeoutMs: 10_000 };
const tools = [
  { name: 'weather', description: 'The weather', parameters: { type: 'object', properties: {} } },
];
const user: Message = { role: 'user', content: 'Weather in Paris?' };

async function ask(model: Model, request: ModelRequest, streaming: boolean): Promise<ModelResponse> {
  if (!streaming) return model.generate(request);
  for await (const event of model.stream!(request)) if (event.type === 'finish') return event.response;
  throw new Error('no finish event');
}

// The first turn (thinking + a tool call), then the follow-up request with the tool's result.
async function twoTurns(model: Model, streaming: boolean) {
  server.enqueue(
    {
      reasoning: { text: 'I need the weather tool.', signature: 'sig-paris' },
      toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }],
    },
    { text: 'Sunny.' },
  );
  const first = await ask(model, { messages: [user], tools }, streaming);
  const messages: Message[] = [
    user,
    assistantTurn(first),
    { role: 'tool', toolCallId: 'call_1', content: 'sunny' },
  ];
  const second = await ask(model, { messages, tools }, streaming);
  return { first, second, sent: server.requests[1]!.body };
}

describe.each([
  ['generate', false],
  ['stream', true],
])('reasoning round trip (%s)', (_label, streaming) => {
  it('Anthropic: the signed thinking block goes back first in the assistant turn', async () => {
    const model = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: server.anthropicBaseURL,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      ...fast,
    });
    const { first, second, sent } = await twoTurns(model, streaming);
    expect(first.reasoning).toEqual({
      text: 'I need the weather tool.',
      blocks: [{ type: 'thinking', text: 'I need the weather tool.', signature: 'sig-paris' }],
    });
    expect(second.text).toBe('Sunny.');
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const messages = sent.messages as { role: string; content: { type: string }[] }[];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I need the weather tool.', signature: 'sig-paris' },
        { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
      ],
    });
  });

  it('DeepSeek: reasoning_content goes back on the assistant message', async () => {
    const model = openaiModel('deepseek-reasoner', {
      apiKey: 'k',
      baseURL: server.openaiBaseURL,
      provider: 'deepseek',
      ...fast,
    });
    const { first, sent } = await twoTurns(model, streaming);
    expect(first.reasoning).toEqual({ text: 'I need the weather tool.', field: 'reasoning_content' });
    const assistant = (sent.messages as Record<string, unknown>[])[1]!;
    expect(assistant).toMatchObject({ role: 'assistant', reasoning_content: 'I need the weather tool.' });
    expect(assistant.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
    ]);
  });

  it('OpenAI and other compatible servers: reasoning is not sent back unless sendReasoning is set', async () => {
    const plain = openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, ...fast });
    const { sent } = await twoTurns(plain, streaming);
    expect(Object.keys((sent.messages as Record<string, unknown>[])[1]!)).not.toContain('reasoning_content');

    server.requests.length = 0;
    const vllm = openaiModel('qwen3', {
      apiKey: 'k',
      baseURL: server.openaiBaseURL,
      provider: 'vllm',
      sendReasoning: true,
      ...fast,
    });
    const opted = await twoTurns(vllm, streaming);
    expect((opted.sent.messages as Record<string, unknown>[])[1]).toMatchObject({
      reasoning_content: 'I need the weather tool.',
    });
  });

  it("Anthropic leaves out another provider's unsigned reasoning (it cannot be a thinking block)", async () => {
    server.enqueue({ text: 'ok' });
    const model = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: server.anthropicBaseURL,
      ...fast,
    });
    const messages: Message[] = [
      user,
      {
        role: 'assistant',
        content: 'Looking.',
        reasoning: { text: 'from deepseek', field: 'reasoning_content' },
      },
      { role: 'user', content: 'And?' },
    ];
    await ask(model, { messages }, streaming);
    const sent = server.requests[0]!.body.messages as { content: unknown[] }[];
    expect(sent[1]!.content).toEqual([{ type: 'text', text: 'Looking.' }]);
  });
});
