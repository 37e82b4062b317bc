// The wire fixture corpus (fixtures/wire/): bodies and streams in each provider's documented wire
// format, with the quirks real servers have, replayed through the real `openai` and
// `@anthropic-ai/sdk` clients from a loopback server: whole, and cut into 7-byte pieces (SSE lines
// and UTF-8 characters split across writes).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { ModelError, RefusalError } from '../kernel/errors.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/wire/${name}`, import.meta.url));

interface Served {
  status: number;
  body: Buffer;
  contentType: string;
}

let server: Server;
let url: string;
let pieceBytes = 0;
const queue: Served[] = [];
const bodies: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', async () => {
      bodies.push(JSON.parse(raw || '{}') as Record<string, unknown>);
      const served = queue.shift();
      if (!served) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no fixture"}}');
        return;
      }
      res.writeHead(served.status, { 'content-type': served.contentType, 'x-should-retry': 'false' });
      if (pieceBytes === 0) {
        res.end(served.body);
        return;
      }
      for (let at = 0; at < served.body.length; at += pieceBytes) {
        res.write(served.body.subarray(at, at + pieceBytes));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function serve(name: string, status = 200): void {
  const contentType = name.endsWith('.sse') ? 'text/event-stream' : 'application/json';
  queue.push({ status, body: fixture(name), contentType });
}

const fast = { maxRetries: 0, timeoutMs: 10_000 };
const openai = (provider = 'mistral') =>
  openaiModel('some-model', { apiKey: 'k', baseURL: `${url}/v1`, provider, ...fast });
const anthropic = () => anthropicModel('claude-opus-4-7', { apiKey: 'k', baseURL: url, ...fast });
const request: ModelRequest = { messages: [{ role: 'user', content: 'Hi.' }] };

async function streamed(
  model: Model,
): Promise<{ response: ModelResponse; deltas: string[]; thoughts: string[] }> {
  const deltas: string[] = [];
  const thoughts: string[] = [];
  for await (const event of model.stream!(request)) {
    if (event.type === 'text-delta') deltas.push(event.delta);
    if (event.type === 'reasoning-delta') thoughts.push(event.delta);
    if (event.type === 'finish') return { response: event.response, deltas, thoughts };
  }
  throw new Error('no finish event');
}

const signature = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds…';
const redacted = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';
const anthropicThinking = 'The user asks for the weather in Zürich; I should call the weather tool.';

describe.each([
  ['whole', 0],
  ['in 7-byte pieces', 7],
])('wire fixtures, %s', (_label, bytes) => {
  beforeAll(() => {
    pieceBytes = bytes;
  });

  it('reads Mistral tool calls that have no type: "function" (generate and stream)', async () => {
    serve('mistral-tool-call-no-type.json');
    const plain = await openai().generate(request);
    expect(plain.toolCalls).toEqual([{ id: 'D681PevKs', name: 'weather', arguments: { city: 'Paris' } }]);
    expect(plain.finishReason).toBe('tool-calls');
    serve('mistral-tool-call-no-type.sse');
    const { response } = await streamed(openai());
    expect(response.toolCalls).toEqual([{ id: 'D681PevKs', name: 'weather', arguments: { city: 'Paris' } }]);
  });

  it('reads content sent as an array of parts as text (generate and stream)', async () => {
    serve('mistral-content-parts.json');
    const plain = await openai().generate(request);
    expect(plain.text).toBe('Bonjour à tous ✓');
    serve('mistral-content-parts.sse');
    const { response, deltas } = await streamed(openai());
    expect(response.text).toBe('Bonjour à tous ✓');
    expect(deltas.join('')).toBe('Bonjour à tous ✓');
    expect(deltas.join('')).not.toContain('[object Object]');
  });

  it('keeps a tool name a server repeats in every delta once', async () => {
    serve('openai-tool-name-repeated.sse');
    const { response } = await streamed(openai('groq'));
    expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'weather', arguments: { city: 'Zürich' } }]);
  });

  it('keeps parallel tool calls that come without an index apart', async () => {
    serve('openai-parallel-no-index.sse');
    const { response } = await streamed(openai('lmstudio'));
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'weather', arguments: { city: 'Paris' } },
      { id: 'call_b', name: 'time', arguments: { zone: 'CET' } },
    ]);
  });

  it('fails an Anthropic stream that starts a second message with a retryable ModelError', async () => {
    serve('anthropic-second-message-start.sse');
    const error = await streamed(anthropic()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).message).toContain('second message');
  });

  it('reads Anthropic thinking (with its signature) and redacted_thinking blocks (generate and stream)', async () => {
    const reasoning = {
      text: anthropicThinking,
      blocks: [
        { type: 'thinking', text: anthropicThinking, signature },
        { type: 'redacted', data: redacted },
      ],
    };
    serve('anthropic-thinking-tool-use.json');
    const plain = await anthropic().generate(request);
    expect(plain.reasoning).toEqual(reasoning);
    expect(plain.text).toBe('Let me look that up.');
    expect(plain.toolCalls).toEqual([{ id: 'toolu_07', name: 'weather', arguments: { city: 'Zürich' } }]);
    serve('anthropic-thinking-tool-use.sse');
    const { response, deltas, thoughts } = await streamed(anthropic());
    expect(response.reasoning).toEqual(reasoning);
    expect(thoughts.join('')).toBe(anthropicThinking);
    expect(deltas.join('')).toBe('Let me look that up.');
    expect(response.toolCalls).toEqual([{ id: 'toolu_08', name: 'weather', arguments: { city: 'Zürich' } }]);
  });

  it('reads DeepSeek reasoning_content and the reasoning token count (generate and stream)', async () => {
    const thought = 'Zürich is in Switzerland; the weather tool needs the city.';
    serve('deepseek-reasoning-tool-call.json');
    const plain = await openai('deepseek').generate(request);
    expect(plain.reasoning).toEqual({ text: thought, field: 'reasoning_content' });
    expect(plain.usage.reasoningTokens).toBe(41);
    expect(plain.toolCalls).toEqual([{ id: 'call_ds1', name: 'weather', arguments: { city: 'Zürich' } }]);
    serve('deepseek-reasoning-tool-call.sse');
    const { response, thoughts } = await streamed(openai('deepseek'));
    expect(response.reasoning).toEqual({ text: thought, field: 'reasoning_content' });
    expect(thoughts.join('')).toBe(thought);
    expect(response.usage.reasoningTokens).toBe(41);
    expect(response.text).toBe('');
  });

  it('reads the `reasoning` field of Groq (stream) and OpenRouter (generate)', async () => {
    serve('groq-reasoning.sse');
    const { response, deltas, thoughts } = await streamed(openai('groq'));
    expect(response.reasoning).toEqual({ text: 'Two plus two is four.', field: 'reasoning' });
    expect(thoughts.join('')).toBe('Two plus two is four.');
    expect(deltas.join('')).toBe('4');
    serve('openrouter-reasoning.json');
    const plain = await openai('openrouter').generate(request);
    expect(plain.reasoning).toEqual({ text: 'Two plus two is four.', field: 'reasoning' });
    expect(plain.text).toBe('4');
    expect(plain.usage.reasoningTokens).toBe(25);
  });

  it("reads Mistral's thinking parts as reasoning, not as text", async () => {
    serve('mistral-content-parts.json');
    expect((await openai().generate(request)).reasoning).toEqual({ text: 'The user wants a greeting.' });
    serve('mistral-content-parts.sse');
    const { response, thoughts } = await streamed(openai());
    expect(response.reasoning).toEqual({ text: 'The user wants a greeting.' });
    expect(thoughts.join('')).toBe('The user wants a greeting.');
  });

  it('throws a RefusalError for an OpenAI refusal, or answers with it when refusals is "answer"', async () => {
    const refusal = "I'm sorry, I can't help with that.";
    const refusing = (refusals?: 'answer') =>
      openaiModel('gpt-5.4', { apiKey: 'k', baseURL: `${url}/v1`, ...fast, ...(refusals && { refusals }) });
    serve('openai-refusal.json');
    const plain = await refusing()
      .generate(request)
      .catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(RefusalError);
    expect(plain).toMatchObject({
      code: 'REFUSED',
      provider: 'openai',
      explanation: refusal,
      retryable: false,
    });
    serve('openai-refusal.sse');
    const error = await streamed(refusing()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    expect(error).toMatchObject({ code: 'REFUSED', explanation: refusal });
    serve('openai-refusal.json');
    const answered = await refusing('answer').generate(request);
    expect(answered).toMatchObject({ text: refusal, finishReason: 'content-filter' });
    serve('openai-refusal.sse');
    const { response } = await streamed(refusing('answer'));
    expect(response).toMatchObject({ text: refusal, finishReason: 'content-filter' });
  });

  it('throws a RefusalError with the category and explanation of an Anthropic refusal', async () => {
    const details = { code: 'REFUSED', provider: 'anthropic', category: 'cyber', retryable: false };
    const explanation = 'The request asks for working malware.';
    serve('anthropic-refusal.json');
    const plain = await anthropic()
      .generate(request)
      .catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(RefusalError);
    expect(plain).toMatchObject({ ...details, explanation });
    serve('anthropic-refusal.sse');
    const error = await streamed(anthropic()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusalError);
    expect(error).toMatchObject({ ...details, explanation });
    serve('anthropic-refusal.sse');
    const answered = anthropicModel('claude-opus-4-7', {
      apiKey: 'k',
      baseURL: url,
      ...fast,
      refusals: 'answer',
    });
    const { response } = await streamed(answered);
    expect(response).toMatchObject({ text: 'Here is ', finishReason: 'content-filter' });
  });

  it("gives an Anthropic 400's message, not its raw JSON body", async () => {
    serve('anthropic-400.json', 400);
    const error = await anthropic()
      .generate(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(400);
    expect((error as ModelError).message).toBe(
      'anthropic: 400 messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
    );
    expect((error as ModelError).message).not.toContain('{');
  });
});

describe('response ids and answering models', () => {
  beforeAll(() => {
    pieceBytes = 0;
  });

  it('carries the OpenAI-compatible response id and the model that answered, in both modes', async () => {
    serve('mistral-tool-call-no-type.json');
    const plain = await openai().generate(request);
    expect(plain.responseId).toBe('cmpl-m1');
    expect(plain.responseModel).toBe('mistral-large-2411');
    serve('mistral-content-parts.sse');
    const { response } = await streamed(openai());
    expect(response.responseId).toBe('cmpl-m4');
    expect(response.responseModel).toBe('magistral-medium-2509');
  });

  it('carries the Anthropic message id and model, in both modes', async () => {
    serve('anthropic-tool-use.json');
    const plain = await anthropic().generate(request);
    expect(plain.responseId).toBe('msg_05');
    expect(plain.responseModel).toBe('claude-opus-4-7-20261101');
    serve('anthropic-tool-use.sse');
    const { response } = await streamed(anthropic());
    expect(response.responseId).toBe('msg_06');
    expect(response.responseModel).toBe('claude-opus-4-7-20261101');
    expect(response.toolCalls).toEqual([{ id: 'toolu_06', name: 'weather', arguments: { city: 'Paris' } }]);
  });
});
