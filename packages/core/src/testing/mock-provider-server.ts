import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeBuiltin } from '../kernel/node-builtin.js';
import { anthropicMessage, sendAnthropicStream } from './mock-anthropic-wire.js';
import { sendEmbeddings } from './mock-embeddings.js';
import { openaiCompletion, sendOpenAIStream } from './mock-openai-wire.js';
import { noRetry, pause, resetAfterFlush, resolveReply, sendError, sendJson } from './mock-wire.js';

export type {
  MockApi,
  MockFault,
  MockHandler,
  MockProviderServer,
  MockProviderServerOptions,
  MockReply,
  MockRequest,
  MockStep,
  MockToolCall,
} from './mock-types.js';

import type {
  MockApi,
  MockFault,
  MockProviderServer,
  MockProviderServerOptions,
  MockRequest,
  MockStep,
} from './mock-types.js';

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
