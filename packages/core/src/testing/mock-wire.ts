// What the OpenAI and Anthropic mock wires share: a reply resolved from a script step, JSON and
// error responses, and server-sent events written with an optional gap.
import type { ServerResponse } from 'node:http';
import type { FinishReason, Usage } from '../contracts/model.js';
import type { MockApi, MockReply } from './mock-types.js';

/** A scripted reply with ids, token counts and finish reason filled in, ready for either wire. */
export interface ResolvedReply {
  text: string;
  toolCalls: { id: string; name: string; json: string; input: unknown }[];
  usage: Usage;
  finishReason: FinishReason;
  model: string;
  /** False to leave token usage out of the response, as some compatible servers do. */
  reportUsage: boolean;
  reasoning?: { text: string; signature: string; field: 'reasoning_content' | 'reasoning' };
  refusal?: { explanation?: string; category?: string };
}

/** Tells the SDKs not to retry: for answers that would fail the same way again. */
export const noRetry = { 'x-should-retry': 'false' };

/** Waits `ms`, or less if the client goes away. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Sends a JSON body (once; a closed or answered response is left alone). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Sends an error body in the shape of the API asked. */
export function sendError(
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

/** A rough token count (four characters a token) for replies that state no usage. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Fills in a script step: tool-call ids and JSON, token counts, finish reason and model. */
export function resolveReply(
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
    reportUsage: step.reportUsage !== false,
    ...(step.reasoning && {
      reasoning: {
        text: step.reasoning.text,
        signature: step.reasoning.signature ?? `sig-${nextId()}`,
        field: step.reasoning.field ?? 'reasoning_content',
      },
    }),
    ...(step.refusal && { refusal: step.refusal }),
  };
}

/** Splits text the way a model streams it: words with their trailing whitespace. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits text in two, so streamed tool arguments arrive in pieces as they do from real servers. */
export function halves(text: string): string[] {
  if (text.length < 2) return text ? [text] : [];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/**
 * Writes server-sent events with an optional gap, stopping when the client goes away; with
 * `cutAfter`, the connection is reset once that many events are out (a network failure mid-stream).
 */
export async function writeEvents(
  res: ServerResponse,
  events: string[],
  delayMs: number,
  gone: AbortSignal,
  cutAfter?: number,
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
    if (index === cutAfter) {
      await resetAfterFlush(res);
      return;
    }
    res.write(event);
  }
  res.end();
}

/** Resets the connection once what was written has reached the client: a failure mid-body. */
export async function resetAfterFlush(res: ServerResponse): Promise<void> {
  await new Promise<void>((resolve) => res.write('', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 5));
  res.socket?.resetAndDestroy();
}
