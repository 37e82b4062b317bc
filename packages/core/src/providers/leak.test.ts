// Leak checks: many calls on one long-lived signal leave no listener on it and a flat heap, and
// aborted runs leave no timer. The SDKs run for real; only their `fetch` is a canned answer, so
// ten thousand calls take a second.

import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { Model } from '../contracts/model.js';
import { AbortError } from '../kernel/errors.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const openaiAnswer = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-5.4',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const anthropicAnswer = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-7',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 3, output_tokens: 1 },
});

type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A canned `fetch`: every call answers `status` with `body` and `headers`; `onCall` sees each call. */
function cannedFetch(
  status: number,
  body: string,
  headers: Record<string, string> = {},
  onCall?: () => void,
): Fetch {
  return async () => {
    onCall?.();
    return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
}

const baseURL = 'http://127.0.0.1:9';

const models: Record<'openai' | 'anthropic', (fetch: Fetch) => Model> = {
  openai: (fetch) =>
    openaiModel('gpt-5.4', { client: new OpenAI({ apiKey: 'k', baseURL: `${baseURL}/v1`, fetch }) }),
  anthropic: (fetch) =>
    anthropicModel('claude-opus-4-7', { client: new Anthropic({ apiKey: 'k', baseURL, fetch }) }),
};
const answers = { openai: openaiAnswer, anthropic: anthropicAnswer };

/**
 * The heap after a GC, read once the job that made the calls has ended. With a canned `fetch`
 * every call settles in microtasks, so thousands of calls run in one job, and until it ends V8
 * keeps alive every object a WeakRef was made to in it (the language's KeepDuringJob rule).
 * openai 7 composes each request's signal with `AbortSignal.any`, which makes such WeakRefs: read
 * inside the job, a bare openai 7 client given a fresh AbortSignal per call "grows" 4.9 MiB per
 * 10,000 calls, and 1.1 MiB once the job has ended. What a call retains shows either way.
 */
async function heapMiB(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

// Ten thousand SDK calls take a few seconds on an idle machine; allow for a busy one.
describe.each(['openai', 'anthropic'] as const)('leaks over %s', { timeout: 120_000 }, (name) => {
  it('10,000 calls on one signal leave no listener on it and a flat heap', async () => {
    const model = models[name](cannedFetch(200, answers[name]));
    const { signal } = new AbortController();
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], signal };
    for (let i = 0; i < 500; i++) await model.generate(request);
    const before = await heapMiB();
    for (let i = 0; i < 10_000; i++) await model.generate(request);
    const growth = (await heapMiB()) - before;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    // One listener (with its SDK closure) per call grew the heap by about 9 MiB per 10,000 calls.
    expect(growth).toBeLessThan(3);
  });

  it('1,000 agent runs on one signal leave no listener on it', async () => {
    const agent = new Agent({ name: 'busy', model: models[name](cannedFetch(200, answers[name])) });
    const { signal } = new AbortController();
    for (let i = 0; i < 1_000; i++) await agent.run('hi', { signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('1,000 runs aborted during a Retry-After wait all reject with AbortError and leave no timer', async () => {
    let abortNow: (() => void) | undefined;
    const fetch = cannedFetch(
      429,
      JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } }),
      { 'retry-after': '30' },
      () => setImmediate(() => abortNow?.()),
    );
    const agent = new Agent({ name: 'patient', model: models[name](fetch) });
    const before = timers();
    const outcomes: unknown[] = [];
    for (let i = 0; i < 1_000; i++) {
      const controller = new AbortController();
      abortNow = () => controller.abort();
      outcomes.push(await agent.run('hi', { signal: controller.signal }).catch((error: unknown) => error));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
    expect(outcomes.every((outcome) => outcome instanceof AbortError)).toBe(true);
    // Each aborted run would otherwise leave its 30-second Retry-After timer running.
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
