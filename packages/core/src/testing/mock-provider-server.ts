import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeBuiltin } from '../node-builtin.js';
import type { FinishReason, Usage } from '../types.js';
import { anthropicMessage, sendAnthropicStream } from './mock-anthropic-wire.js';
import { sendEmbeddings } from './mock-embeddings.js';
import { openaiCompletion, sendOpenAIStream } from './mock-openai-wire.js';
import { noRetry, pause, resetAfterFlush, resolveReply, sendError, sendJson } from './mock-wire.js';

/**
 * A tool call the mock model makes; `arguments` may be raw text to simulate broken JSON (sent as
 * is: as OpenAI's argument text, Anthropic's streamed input deltas, or a non-object `tool_use.input`).
 */
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
  /** False to send no token usage at all, as some OpenAI-compatible servers do. */
  reportUsage?: boolean;
  /** Delay before this answer starts, in milliseconds (added to the server's `latencyMs`). */
  delayMs?: number;
  /** Gap between this answer's streamed events (overrides the server's `chunkDelayMs`): a slow stream. */
  chunkDelayMs?: number;
  /**
   * Reasoning before the answer: an Anthropic `thinking` block (signed with `signature`, default
   * `sig-<n>`), or OpenAI-compatible `reasoning_content` (or the `field` named).
   */
  reasoning?: { text: string; signature?: string; field?: 'reasoning_content' | 'reasoning' };
  /**
   * A refusal: OpenAI's `refusal` text (`explanation`), or Anthropic's `stop_reason: "refusal"`
   * with `stop_details` (`category`, `explanation`).
   */
  refusal?: { explanation?: string; category?: string };
}

/** A failure the mock server injects instead of answering. */
export type MockFault =
  /** 429 with `Retry-After` and `retry-after-ms` headers (default: 1 second). */
  | { fault: 'rate-limit'; retryAfterSeconds?: number; retryAfterMs?: number }
  /**
   * 500 (or `status`); `retryAfterMs` adds a `retry-after-ms` header so retries do not wait their
   * default backoff; `message` is the error body's message (a 401 that echoes the key, say).
   */
  | { fault: 'server-error'; status?: number; retryAfterMs?: number; message?: string }
  /** Never answers, until the client disconnects or the server closes. */
  | { fault: 'hang' }
  /** 200 with a body that is not valid JSON (or a broken SSE event when streaming). */
  | { fault: 'malformed' }
  /**
   * Resets the connection: `'before-headers'` at once; `'mid-body'` after the 200 headers and half
   * of the JSON body, or after the first `afterEvents` events of a stream (default 1: the opening
   * event, before any text). `reply` is the answer that gets cut (default: a short text).
   */
  | { fault: 'reset'; at: 'before-headers' | 'mid-body'; afterEvents?: number; reply?: MockReply }
  /** 200 with no answer in it: no `choices` (OpenAI) or no `content` (Anthropic), or an empty stream. */
  | { fault: 'empty' }
  /**
   * 200 headers and the start of the body (or of the stream), then nothing, until the client
   * disconnects or the server closes: a body that stalls after its headers.
   */
  | { fault: 'stall' };

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
  /**
   * Responses whose connection is still open: a request being answered, or one left hanging or
   * stalled that the client has not cut. 0 once every client has let go of what it abandoned.
   */
  readonly openResponses: number;
  /** Stops the server and destroys open connections, hung ones included. */
  close(): Promise<void>;
}

const NO_SCRIPT_MESSAGE = 'mockProviderServer: no scripted response left';

/**
 * Starts a mock provider server speaking OpenAI Chat Completions, Anthropic Messages and OpenAI
 * embeddings. A real HTTP server, so Node.js only; a browser test scripts its models with `ScriptedModel`.
 */
export async function mockProviderServer(
  options: MockProviderServerOptions = {},
): Promise<MockProviderServer> {
  const { createServer } = nodeBuiltin<typeof import('node:http')>(
    'node:http',
    'mockProviderServer()',
    'it is an HTTP server for tests in Node.js; in a browser, script the models with ScriptedModel.',
  );
  const script: MockStep[] = [];
  const requests: MockRequest[] = [];
  let counter = 0;
  let openResponses = 0;
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
    openResponses++;
    res.on('close', () => {
      openResponses--;
      gone.abort();
    });

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

    const latency = (options.latencyMs ?? 0) + (step && !('fault' in step) ? (step.delayMs ?? 0) : 0);
    if (latency > 0) await pause(latency, gone.signal);
    if (gone.signal.aborted) return;

    if (step && 'fault' in step) {
      if (step.fault === 'reset') {
        const reply = resolveReply(step.reply ?? { text: 'A cut answer.' }, body, 'call_cut_', nextId);
        if (step.at === 'before-headers') res.socket?.resetAndDestroy();
        else if (!request.stream) {
          const full = JSON.stringify(
            api === 'anthropic' ? anthropicMessage(reply, nextId()) : openaiCompletion(reply, nextId()),
          );
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
          res.write(full.slice(0, Math.floor(full.length / 2)));
          await resetAfterFlush(res);
        } else if (api === 'openai') {
          await sendOpenAIStream(res, reply, body, nextId(), 0, gone.signal, step.afterEvents ?? 1);
        } else {
          await sendAnthropicStream(res, reply, nextId(), 0, gone.signal, step.afterEvents ?? 1);
        }
        return;
      }
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
    const delay = step.chunkDelayMs ?? options.chunkDelayMs ?? 0;
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
    get openResponses() {
      return openResponses;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

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
        fault.status ?? 500,
        api === 'anthropic' ? 'api_error' : 'server_error',
        fault.message ?? 'mockProviderServer: server error',
        headers,
      );
      return;
    }
    case 'hang':
      return;
    case 'stall':
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(': the stream starts, then stalls\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id": "mock-stalled", "choices": [');
      }
      return;
    case 'empty':
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(api === 'openai' ? 'data: [DONE]\n\n' : '');
      } else if (api === 'anthropic') {
        sendJson(res, 200, { id: 'msg_mock_empty', type: 'message', role: 'assistant', model: 'mock' });
      } else {
        sendJson(res, 200, {
          id: 'chatcmpl-mock-empty',
          object: 'chat.completion',
          model: 'mock',
          choices: [],
        });
      }
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
