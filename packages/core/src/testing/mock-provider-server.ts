import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FinishReason, Usage } from '../types.js';

/** A tool call the mock model makes; `arguments` may be raw text to simulate broken JSON. */
export interface MockToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  id?: string;
}

/** A provider-neutral answer, rendered in the wire format of whichever API was called. */
export interface MockReply {
  text?: string;
  toolCalls?: MockToolCall[];
  /** Reported usage; unset fields are estimated from the request and the answer. */
  usage?: Partial<Usage>;
  /** Defaults to `'tool-calls'` when there are tool calls, else `'stop'`. */
  finishReason?: FinishReason;
}

/** A failure the mock server injects instead of answering. */
export type MockFault =
  /** 429 with `Retry-After` and `retry-after-ms` headers (default: 1 second). */
  | { fault: 'rate-limit'; retryAfterSeconds?: number; retryAfterMs?: number }
  /** 500; `retryAfterMs` adds a `retry-after-ms` header so SDK retries do not wait their default backoff. */
  | { fault: 'server-error'; retryAfterMs?: number }
  /** Never answers, until the client disconnects or the server closes. */
  | { fault: 'hang' }
  /** 200 with a body that is not valid JSON (or a broken SSE event when streaming). */
  | { fault: 'malformed' };

/** One scripted step: an answer or a fault. */
export type MockStep = MockReply | MockFault;

/** Which API a request was addressed to. */
export type MockApi = 'openai' | 'anthropic' | 'embeddings';

/** A request the mock server received, as recorded in `requests` and passed to `handler`. */
export interface MockRequest {
  api: MockApi;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  stream: boolean;
}

/** Decides the step for a request; for embeddings, only a fault changes the answer. */
export type MockHandler = (request: MockRequest) => MockStep | undefined | Promise<MockStep | undefined>;

/** Options of `mockProviderServer`. */
export interface MockProviderServerOptions {
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Delay between streamed events, in milliseconds, to test cancellation mid-stream. */
  chunkDelayMs?: number;
  /** Answers requests once the script (`enqueue`) is empty. */
  handler?: MockHandler;
  /** Length of hashed embedding vectors when the request sets no `dimensions` (default 64). */
  embeddingDimensions?: number;
  /** Computes embedding vectors instead of the default bag-of-words hash. */
  embed?: (texts: string[]) => number[][] | Promise<number[][]>;
}

/** A running mock of the OpenAI and Anthropic HTTP APIs on 127.0.0.1, for tests and benchmarks. */
export interface MockProviderServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Base URL for the `openai` SDK and OpenAI-compatible clients (`url + '/v1'`). */
  readonly openaiBaseURL: string;
  /** Base URL for `@anthropic-ai/sdk` (`url`). */
  readonly anthropicBaseURL: string;
  /** Every API request received, faulted ones included, in arrival order. */
  readonly requests: MockRequest[];
  /** Appends steps to the script; chat and messages requests consume them in order (embeddings do not). */
  enqueue(...steps: MockStep[]): void;
  /** How many scripted steps are still waiting. */
  readonly remaining: number;
  /** Stops the server and destroys open connections, hung ones included. */
  close(): Promise<void>;
}

interface ResolvedReply {
  text: string;
  toolCalls: { id: string; name: string; json: string; input: unknown }[];
  usage: Usage;
  finishReason: FinishReason;
  model: string;
}

const NO_SCRIPT_MESSAGE = 'mockProviderServer: no scripted response left';

/** Starts a mock provider server speaking OpenAI Chat Completions, Anthropic Messages and OpenAI embeddings. */
export async function mockProviderServer(
  options: MockProviderServerOptions = {},
): Promise<MockProviderServer> {
  const script: MockStep[] = [];
  const requests: MockRequest[] = [];
  let counter = 0;
  const nextId = () => ++counter;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      sendJson(
        res,
        500,
        { error: { message: `mockProviderServer: ${message}`, type: 'server_error' } },
        noRetry,
      );
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gone = new AbortController();
    res.on('close', () => gone.abort());

    const api = apiOf(req.method, req.url);
    const raw = await readBody(req);
    if (!api) {
      sendJson(res, 404, { error: { message: `mockProviderServer: no route for ${req.method} ${req.url}` } });
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      sendJson(
        res,
        400,
        { error: { message: 'mockProviderServer: the body is not a JSON object' } },
        noRetry,
      );
      return;
    }
    const request: MockRequest = { api, body, headers: headersOf(req), stream: body.stream === true };
    requests.push(request);

    let step: MockStep | undefined;
    if (api !== 'embeddings' && script.length > 0) step = script.shift();
    else if (options.handler) step = await options.handler(request);

    if (options.latencyMs) await pause(options.latencyMs, gone.signal);
    if (gone.signal.aborted) return;

    if (step && 'fault' in step) {
      sendFault(res, api, step, request.stream);
      return;
    }
    if (api === 'embeddings') {
      await sendEmbeddings(res, body, options);
      return;
    }
    if (!step) {
      sendError(res, api, 500, 'api_error', NO_SCRIPT_MESSAGE, noRetry);
      return;
    }
    const reply = resolveReply(step, body, api === 'openai' ? 'call_mock_' : 'toolu_mock_', nextId);
    const delay = options.chunkDelayMs ?? 0;
    if (api === 'openai') {
      if (request.stream) await sendOpenAIStream(res, reply, body, nextId(), delay, gone.signal);
      else sendJson(res, 200, openaiCompletion(reply, nextId()));
    } else if (request.stream) {
      await sendAnthropicStream(res, reply, nextId(), delay, gone.signal);
    } else {
      sendJson(res, 200, anthropicMessage(reply, nextId()));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    requests,
    enqueue(...steps) {
      script.push(...steps);
    },
    get remaining() {
      return script.length;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

const noRetry = { 'x-should-retry': 'false' };

function apiOf(method: string | undefined, url: string | undefined): MockApi | undefined {
  if (method !== 'POST' || !url) return undefined;
  const path = url.split('?')[0]?.replace(/\/+$/, '');
  if (path === '/v1/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  if (path === '/v1/embeddings') return 'embeddings';
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  api: MockApi,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body =
    api === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : { error: { message, type, code: type } };
  sendJson(res, status, body, headers);
}

function sendFault(res: ServerResponse, api: MockApi, fault: MockFault, stream: boolean): void {
  switch (fault.fault) {
    case 'rate-limit': {
      const ms = fault.retryAfterMs ?? (fault.retryAfterSeconds ?? 1) * 1000;
      const seconds = fault.retryAfterSeconds ?? Math.ceil(ms / 1000);
      const type = api === 'anthropic' ? 'rate_limit_error' : 'rate_limit_exceeded';
      sendError(res, api, 429, type, 'mockProviderServer: rate limit reached', {
        'retry-after': String(seconds),
        'retry-after-ms': String(ms),
      });
      return;
    }
    case 'server-error': {
      const headers: Record<string, string> =
        fault.retryAfterMs !== undefined ? { 'retry-after-ms': String(fault.retryAfterMs) } : {};
      sendError(
        res,
        api,
        500,
        api === 'anthropic' ? 'api_error' : 'server_error',
        'mockProviderServer: server error',
        headers,
      );
      return;
    }
    case 'hang':
      return;
    case 'malformed':
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end('event: message_start\ndata: {"type": "message_start", "message": {\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "mock-malformed", "choices": [');
      }
      return;
  }
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function resolveReply(
  step: MockReply,
  body: Record<string, unknown>,
  idPrefix: string,
  nextId: () => number,
): ResolvedReply {
  const text = step.text ?? '';
  const toolCalls = (step.toolCalls ?? []).map((call) => {
    const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return { id: call.id ?? `${idPrefix}${nextId()}`, name: call.name, json, input: call.arguments };
  });
  const given = step.usage ?? {};
  const inputTokens = given.inputTokens ?? estimateTokens(JSON.stringify(body.messages ?? ''));
  const outputTokens =
    given.outputTokens ?? estimateTokens(text + toolCalls.map((call) => call.name + call.json).join(''));
  return {
    text,
    toolCalls,
    usage: {
      inputTokens,
      outputTokens,
      cachedTokens: given.cachedTokens ?? 0,
      reasoningTokens: given.reasoningTokens ?? 0,
      totalTokens: given.totalTokens ?? inputTokens + outputTokens,
    },
    finishReason: step.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    model: typeof body.model === 'string' ? body.model : 'mock-model',
  };
}

/** Splits text the way a model streams it: words with their trailing whitespace. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function halves(text: string): string[] {
  if (text.length < 2) return text ? [text] : [];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

async function writeEvents(
  res: ServerResponse,
  events: string[],
  delayMs: number,
  gone: AbortSignal,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const [index, event] of events.entries()) {
    if (gone.aborted) return;
    if (index > 0) await pause(delayMs, gone);
    if (gone.aborted) return;
    res.write(event);
  }
  res.end();
}

// ---- OpenAI Chat Completions ----

const openaiFinishReasons: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'error',
  other: 'other',
};

function openaiUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function openaiCompletion(reply: ResolvedReply, id: number) {
  const toolCalls = reply.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.json },
  }));
  return {
    id: `chatcmpl-mock-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text === '' && toolCalls.length > 0 ? null : reply.text,
          refusal: null,
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: openaiFinishReasons[reply.finishReason],
      },
    ],
    usage: openaiUsage(reply.usage),
  };
}

async function sendOpenAIStream(
  res: ServerResponse,
  reply: ResolvedReply,
  body: Record<string, unknown>,
  id: number,
  delayMs: number,
  gone: AbortSignal,
): Promise<void> {
  const base = {
    id: `chatcmpl-mock-${id}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;

  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(reply.text)) events.push(chunk({ content: piece }));
  for (const [index, call] of reply.toolCalls.entries()) {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const part of halves(call.json))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  events.push(chunk({}, openaiFinishReasons[reply.finishReason]));
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  if (streamOptions?.include_usage === true) {
    events.push(`data: ${JSON.stringify({ ...base, choices: [], usage: openaiUsage(reply.usage) })}\n\n`);
  }
  events.push('data: [DONE]\n\n');
  await writeEvents(res, events, delayMs, gone);
}

// ---- Anthropic Messages ----

const anthropicStopReasons: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: 'pause_turn',
  other: 'pause_turn',
};

/** Anthropic reports cache reads apart from `input_tokens`; neutral usage counts them inside. */
function anthropicUsage(usage: Usage) {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedTokens),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedTokens,
    output_tokens_details: usage.reasoningTokens > 0 ? { thinking_tokens: usage.reasoningTokens } : null,
  };
}

function anthropicContent(reply: ResolvedReply) {
  const content: Record<string, unknown>[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    const input = typeof call.input === 'string' ? {} : call.input;
    content.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  return content;
}

function anthropicMessage(reply: ResolvedReply, id: number) {
  return {
    id: `msg_mock_${id}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: anthropicContent(reply),
    stop_reason: anthropicStopReasons[reply.finishReason],
    stop_sequence: null,
    usage: anthropicUsage(reply.usage),
  };
}

async function sendAnthropicStream(
  res: ServerResponse,
  reply: ResolvedReply,
  id: number,
  delayMs: number,
  gone: AbortSignal,
): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = anthropicUsage(reply.usage);
  const events = [
    event('message_start', {
      message: {
        id: `msg_mock_${id}`,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1, output_tokens_details: null },
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (reply.text) {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of pieces(reply.text)) {
      events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    }
    events.push(event('content_block_stop', { index }));
    index++;
  }
  for (const call of reply.toolCalls) {
    events.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const part of halves(call.json)) {
      events.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }),
      );
    }
    events.push(event('content_block_stop', { index }));
    index++;
  }
  events.push(
    event('message_delta', {
      delta: { stop_reason: anthropicStopReasons[reply.finishReason], stop_sequence: null },
      usage: { output_tokens: usage.output_tokens, output_tokens_details: usage.output_tokens_details },
    }),
    event('message_stop', {}),
  );
  await writeEvents(res, events, delayMs, gone);
}

// ---- OpenAI embeddings ----

async function sendEmbeddings(
  res: ServerResponse,
  body: Record<string, unknown>,
  options: MockProviderServerOptions,
): Promise<void> {
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : undefined;
  if (!texts || texts.some((text) => typeof text !== 'string')) {
    sendError(
      res,
      'embeddings',
      400,
      'invalid_request_error',
      'mockProviderServer: input must be a string or strings',
      noRetry,
    );
    return;
  }
  const strings = texts as string[];
  const dimensions =
    typeof body.dimensions === 'number' ? body.dimensions : (options.embeddingDimensions ?? 64);
  const vectors = options.embed
    ? await options.embed(strings)
    : strings.map((text) => hashEmbedding(text, dimensions));
  const base64 = body.encoding_format === 'base64';
  const tokens = strings.reduce((sum, text) => sum + estimateTokens(text), 0);
  sendJson(res, 200, {
    object: 'list',
    model: typeof body.model === 'string' ? body.model : 'mock-embedding',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** FNV-1a, to seed each word's pseudo-random direction. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A unit vector summing one pseudo-random direction per word, so the same text always gets the same
 * vector and texts sharing words are closer than texts that share none.
 */
function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    let state = fnv1a(word);
    for (let i = 0; i < dimensions; i++) {
      // mulberry32
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      vector[i] = (vector[i] ?? 0) + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
    }
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}
