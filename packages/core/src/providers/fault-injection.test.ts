// The fault-injection suite: every fault the mock server can inject, over both providers, through
// the real SDKs, in both call modes. Each case states its outcome: retried and completed, or a
// clear typed error within a stated time, with no timer left behind.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { AbortError, ModelError } from '../kernel/errors.js';
import { tool } from '../primitives/tool.js';
import {
  type MockProviderServer,
  type MockStep,
  mockProviderServer,
} from '../testing/mock-provider-server.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';
import type { ProviderCallOptions } from './provider-call.js';

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

/** Short waits so the whole suite runs in seconds: a 1 ms first backoff, a 2 s attempt timeout (a hang is cut there; a loaded machine's loopback answer must never be). */
const fast: ProviderCallOptions = { maxRetries: 2, initialRetryDelayMs: 1, timeoutMs: 2_000 };

const providers = {
  openai: (options: ProviderCallOptions = {}) =>
    openaiModel('gpt-5.4', { apiKey: 'test-key', baseURL: server.openaiBaseURL, ...fast, ...options }),
  anthropic: (options: ProviderCallOptions = {}) =>
    anthropicModel('claude-opus-4-7', {
      apiKey: 'test-key',
      baseURL: server.anthropicBaseURL,
      ...fast,
      ...options,
    }),
};

type Mode = 'generate' | 'stream';
const request: ModelRequest = { messages: [{ role: 'user', content: 'Say ok.' }] };

/** One call in either mode; a stream also returns the text deltas it delivered. */
async function ask(
  model: Model,
  mode: Mode,
  req: ModelRequest = request,
): Promise<ModelResponse & { deltas: string[] }> {
  if (mode === 'generate') return { ...(await model.generate(req)), deltas: [] };
  const deltas: string[] = [];
  for await (const event of model.stream!(req)) {
    if (event.type === 'text-delta') deltas.push(event.delta);
    if (event.type === 'finish') return { ...event.response, deltas };
  }
  throw new Error('the stream ended without a finish event');
}

/** Settles `work`, returning what it threw (or the value) and how long it took. */
async function timed<T>(work: Promise<T>): Promise<{ error: unknown; value: T | undefined; ms: number }> {
  const started = performance.now();
  try {
    const value = await work;
    return { error: undefined, value, ms: performance.now() - started };
  } catch (error) {
    return { error, value: undefined, ms: performance.now() - started };
  }
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

/** Faults a retry cures: the first request fails this way, the second answers. */
const transient: [string, MockStep][] = [
  ['a 500', { fault: 'server-error', retryAfterMs: 1 }],
  ['a 502', { fault: 'server-error', status: 502 }],
  ['a 503 with retry-after-ms', { fault: 'server-error', status: 503, retryAfterMs: 5 }],
  ['a 429 with a short Retry-After', { fault: 'rate-limit', retryAfterMs: 5 }],
  ['a reset before the headers', { fault: 'reset', at: 'before-headers' }],
  ['a reset mid-body (mid-stream before any text)', { fault: 'reset', at: 'mid-body' }],
  ['no response (timed out at timeoutMs)', { fault: 'hang' }],
  ['invalid JSON', { fault: 'malformed' }],
  ['empty choices / no content', { fault: 'empty' }],
  ['a slow start past timeoutMs', { text: 'too late', delayMs: 5_000 }],
];

describe.each(['openai', 'anthropic'] as const)('faults over %s', (name) => {
  const model = (options?: ProviderCallOptions) => providers[name](options);

  describe.each(['generate', 'stream'] as const)('%s', (mode) => {
    it.each(transient)('retries %s and completes', async (_label, fault) => {
      server.enqueue(fault, { text: 'ok' });
      const { value, error, ms } = await timed(ask(model(), mode));
      expect(error).toBeUndefined();
      expect(value?.text).toBe('ok');
      expect(server.requests).toHaveLength(2);
      expect(ms).toBeLessThan(10_000);
    });

    it('fails at once with a retryable ModelError carrying the wait when Retry-After passes maxRetryDelayMs', async () => {
      const before = timers();
      server.enqueue({ fault: 'rate-limit', retryAfterSeconds: 3600 });
      const { error, ms } = await timed(ask(model(), mode));
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
      expect((error as Error).message).toMatch(/maxRetryDelayMs/);
      expect(server.requests).toHaveLength(1);
      expect(ms).toBeLessThan(5_000);
      expect(timers()).toBeLessThanOrEqual(before);
    });

    it('gives up after maxRetries with the last status', async () => {
      server.enqueue(
        { fault: 'server-error', status: 503, retryAfterMs: 1 },
        { fault: 'server-error', status: 503, retryAfterMs: 1 },
        { fault: 'server-error', status: 503, retryAfterMs: 1 },
      );
      const { error } = await timed(ask(model(), mode));
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ status: 503, retryable: true });
      expect(server.requests).toHaveLength(3);
    });

    it('does not retry a 400', async () => {
      server.enqueue({ fault: 'server-error', status: 400 }, { text: 'never asked' });
      const { error } = await timed(ask(model(), mode));
      expect(error).toMatchObject({ status: 400, retryable: false });
      expect(server.requests).toHaveLength(1);
    });

    it('ends a call that keeps hanging at deadlineMs, retries included', async () => {
      server.enqueue({ fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' });
      const { error, ms } = await timed(ask(model({ timeoutMs: 10_000, deadlineMs: 250 }), mode));
      expect(error).toBeInstanceOf(ModelError);
      expect((error as Error).message).toMatch(/deadline of 250 ms/);
      expect(ms).toBeLessThan(5_000);
    });

    it('rejects with AbortError at once when aborted during a Retry-After wait, leaving no timer', async () => {
      const before = timers();
      server.enqueue({ fault: 'rate-limit', retryAfterMs: 30_000 }, { text: 'never asked' });
      const controller = new AbortController();
      const call = timed(ask(model(), mode, { ...request, signal: controller.signal }));
      await waitFor(() => server.requests.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      const { error, ms } = await call;
      expect(error).toBeInstanceOf(AbortError);
      expect(ms).toBeLessThan(5_000);
      expect(timers()).toBeLessThanOrEqual(before);
    });

    it('estimates the usage of a response that reports none, and marks it', async () => {
      server.enqueue({ text: 'An answer of some length.', reportUsage: false });
      const response = await ask(model(), mode);
      expect(response.usage.estimated).toBe(true);
      expect(response.usage.outputTokens).toBe(Math.ceil('An answer of some length.'.length / 4));
      expect(response.usage.inputTokens).toBeGreaterThan(0);
      server.enqueue({ text: 'Reported.', usage: { inputTokens: 7, outputTokens: 3 } });
      const reported = await ask(model(), mode);
      expect(reported.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
      expect(reported.usage.estimated).toBeUndefined();
    });
  });

  it('stream: a reset after text was delivered is retried: a restart event, then the whole answer again', async () => {
    server.enqueue(
      { fault: 'reset', at: 'mid-body', afterEvents: 4, reply: { text: 'one two three four' } },
      { text: 'one two three four' },
    );
    const events: string[] = [];
    let finished: ModelResponse | undefined;
    for await (const event of model().stream!(request)) {
      events.push(event.type === 'text-delta' ? event.delta : event.type);
      if (event.type === 'finish') finished = event.response;
    }
    const restart = events.indexOf('restart');
    expect(restart).toBeGreaterThan(0);
    expect(events.slice(restart + 1, -1).join('')).toBe('one two three four');
    expect(finished?.text).toBe('one two three four');
    expect(server.requests).toHaveLength(2);
  });

  it('stream: a reset after text was delivered, with no retries left, fails with a retryable ModelError', async () => {
    server.enqueue({ fault: 'reset', at: 'mid-body', afterEvents: 4, reply: { text: 'one two three four' } });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const event of model({ maxRetries: 0 }).stream!(request)) {
        if (event.type === 'text-delta') deltas.push(event.delta);
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect(deltas.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });

  it('an Agent streamed through a reset after some text answers as its run() does, marking the restart', async () => {
    server.enqueue(
      { fault: 'reset', at: 'mid-body', afterEvents: 4, reply: { text: 'one two three four' } },
      { text: 'one two three four' },
      { text: 'one two three four' },
    );
    const events: SwarmEvent[] = [];
    const agent = new Agent({ name: 'writer', model: model() });
    const streamed = await agent.run('Count.', { textDeltas: true, onEvent: (e) => events.push(e) });
    const ran = await agent.run('Count.');
    expect(streamed.output).toBe(ran.output);
    expect(events.map((e) => e.type)).toContain('model.restart');
  });

  it('stream: a slow stream within timeoutMs completes; one past it fails with a retryable timeout', async () => {
    server.enqueue({ text: 'slow but steady words', chunkDelayMs: 20 });
    const slow = await ask(model({ timeoutMs: 10_000 }), 'stream');
    expect(slow.text).toBe('slow but steady words');

    server.enqueue({ text: 'far too slow for the timeout', chunkDelayMs: 150 });
    const { error, ms } = await timed(ask(model({ timeoutMs: 300, maxRetries: 0 }), 'stream'));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/timed out after 300 ms/);
    expect(ms).toBeLessThan(5_000);
  });

  it('an Agent answers the model with a tool error for malformed tool arguments, and completes', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: z.object({ word: z.string() }),
      execute: ({ word }) => `${word}: found`,
    });
    server.enqueue(
      { toolCalls: [{ name: 'lookup', arguments: '{"word": "ab' }] },
      { toolCalls: [{ name: 'lookup', arguments: { word: 'ab' } }] },
      { text: 'Done.' },
    );
    const agent = new Agent({ name: 'reader', model: model(), tools: [lookup] });
    const result = await agent.run('Look up "ab".');
    expect(result.output).toBe('Done.');
    expect(result.toolCalls.map((record) => record.isError)).toEqual([true, false]);
    // OpenAI sends the broken text as is; Anthropic's wire carries no parsable object at all.
    expect(result.toolCalls[0]?.result).toMatch(/^Invalid arguments/);
  });

  it.each([
    ['a string', 'word=ab'],
    ['a JSON array', '["ab"]'],
  ])(
    'never runs a tool on arguments the model did not send: %s as the arguments is "Invalid arguments"',
    async (_, raw) => {
      const ran: unknown[] = [];
      // Every field optional: `{}` would pass validation, so only the argument parser can refuse it.
      const lookup = tool({
        name: 'lookup',
        description: 'Looks a word up.',
        parameters: z.object({ word: z.string().optional() }),
        execute: (args) => {
          ran.push(args);
          return 'found';
        },
      });
      server.enqueue({ toolCalls: [{ name: 'lookup', arguments: raw }] }, { text: 'Done.' });
      const result = await new Agent({ name: 'reader', model: model(), tools: [lookup] }).run(
        'Look up "ab".',
      );
      expect(ran).toEqual([]);
      expect(result.toolCalls[0]).toMatchObject({ isError: true });
      expect(result.toolCalls[0]?.result).toMatch(/^Invalid arguments/);
    },
  );
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
}
