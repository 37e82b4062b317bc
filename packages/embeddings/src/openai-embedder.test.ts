// openaiEmbedder under faults, against the mock server through the real openai SDK: every request
// runs through core's callWithRetries, so it fails like a chat model (core README, "Failure
// behaviour") and leaves no listener, connection or timer behind.
import { getEventListeners } from 'node:events';
import { AbortError, ConfigError, ModelError } from '@swarm/core';
import { type MockProviderServer, type MockStep, mockProviderServer } from '@swarm/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIEmbedderOptions, openaiEmbedder } from './openai-embedder.js';

let server: MockProviderServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A mock server whose first `faults.length` embeddings requests get these faults, in order. */
async function faultingServer(...faults: MockStep[]): Promise<MockProviderServer> {
  let seen = 0;
  server = await mockProviderServer({
    embeddingDimensions: 8,
    handler: () => faults[seen++],
  });
  return server;
}

/**
 * Short waits so the suite runs in seconds: a 1 ms first backoff, a 2 s attempt timeout (a hang is
 * cut there; an answer on a loaded machine's loopback must never be).
 */
function embedderOn(target: MockProviderServer, options: OpenAIEmbedderOptions = {}) {
  return openaiEmbedder('text-embedding-3-small', {
    apiKey: 'test-key',
    baseURL: target.openaiBaseURL,
    maxRetries: 2,
    initialRetryDelayMs: 1,
    timeoutMs: 2_000,
    ...options,
  });
}

/** Settles `work`, returning what it threw (or the value) and how long it took. */
async function timed<T>(work: Promise<T>): Promise<{ error: unknown; value: T | undefined; ms: number }> {
  const started = performance.now();
  try {
    return { error: undefined, value: await work, ms: performance.now() - started };
  } catch (error) {
    return { error, value: undefined, ms: performance.now() - started };
  }
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

/** Waits up to 5 s for `condition`, checked every few milliseconds. */
async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** Faults one retry cures: the first request fails this way, the second answers. */
const transient: [string, MockStep][] = [
  ['a 500', { fault: 'server-error' }],
  ['a 503', { fault: 'server-error', status: 503 }],
  ['a reset before the headers', { fault: 'reset', at: 'before-headers' }],
  ['a reset mid-body', { fault: 'reset', at: 'mid-body' }],
  ['no response (timed out at timeoutMs)', { fault: 'hang' }],
  ['a body that stalls after its headers (timed out at timeoutMs)', { fault: 'stall' }],
  ['invalid JSON', { fault: 'malformed' }],
  ['a response without vectors', { fault: 'empty' }],
];

describe('openaiEmbedder under faults', () => {
  it.each(transient)(
    'retries %s on its own signal and completes, leaving no listener on the caller’s signal',
    async (_label, fault) => {
      const target = await faultingServer(fault);
      const { signal } = new AbortController();
      const vectors = await embedderOn(target).embed(['tax filing', 'marathon training'], { signal });
      expect(vectors).toHaveLength(2);
      expect(vectors[0]).toBeInstanceOf(Float32Array);
      expect(vectors[0]).toHaveLength(8);
      expect(target.requests).toHaveLength(2);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      await waitFor(() => target.openResponses === 0);
    },
  );

  it('fails at once with a retryable ModelError carrying the wait when Retry-After passes maxRetryDelayMs', async () => {
    const target = await faultingServer({ fault: 'rate-limit', retryAfterSeconds: 3600 });
    const before = timers();
    const { error, ms } = await timed(embedderOn(target).embed(['a']));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
    expect((error as Error).message).toMatch(/maxRetryDelayMs/);
    expect(target.requests).toHaveLength(1);
    expect(ms).toBeLessThan(5_000);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it.each([
    ['no response', { fault: 'hang' }],
    ['a body that stalls after its headers', { fault: 'stall' }],
  ] as [string, MockStep][])(
    'times %s out at timeoutMs with a retryable ModelError and cuts the connection',
    async (_label, fault) => {
      const target = await faultingServer(fault);
      const { error, ms } = await timed(embedderOn(target, { timeoutMs: 300, maxRetries: 0 }).embed(['a']));
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ retryable: true });
      expect((error as Error).message).toMatch(/timed out after 300 ms/);
      expect(ms).toBeLessThan(5_000);
      expect(target.requests).toHaveLength(1);
      await waitFor(() => target.openResponses === 0);
    },
  );

  it('ends a call that keeps hanging at deadlineMs, retries included, and cuts the connection', async () => {
    const target = await faultingServer({ fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' });
    const before = timers();
    const { error, ms } = await timed(
      embedderOn(target, { timeoutMs: 10_000, deadlineMs: 250 }).embed(['a']),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/deadline of 250 ms/);
    expect(ms).toBeLessThan(5_000);
    await waitFor(() => target.openResponses === 0);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('keeps a response without vectors a retryable ModelError once the retries run out', async () => {
    const target = await faultingServer({ fault: 'empty' }, { fault: 'empty' });
    const { error } = await timed(embedderOn(target, { maxRetries: 1 }).embed(['a', 'b']));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/no vector for input 0 of 2/);
    expect(target.requests).toHaveLength(2);
  });

  it('leaves no listener on one long-lived signal after 1,000 embeds', { timeout: 60_000 }, async () => {
    const target = await faultingServer();
    const embedder = embedderOn(target);
    const { signal } = new AbortController();
    for (let i = 0; i < 1_000; i++) await embedder.embed([`text ${i}`], { signal });
    expect(target.requests).toHaveLength(1_000);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it.each([
    ['before the headers', { fault: 'hang' }],
    ['while the body stalls', { fault: 'stall' }],
  ] as [string, MockStep][])(
    'rejects with AbortError promptly when aborted %s, leaving no listener and no open connection',
    async (_label, fault) => {
      const target = await faultingServer(fault);
      const controller = new AbortController();
      const embedder = embedderOn(target, { timeoutMs: 30_000 });
      const call = timed(embedder.embed(['a'], { signal: controller.signal }));
      await waitFor(() => target.requests.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // In flight, the call holds one listener on the caller's signal (its attempt's link), not one
      // per layer (SDK, race) that outlives the call.
      expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
      controller.abort();
      const { error, ms } = await call;
      expect(error).toBeInstanceOf(AbortError);
      expect(ms).toBeLessThan(5_000);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await waitFor(() => target.openResponses === 0);
    },
  );

  it('rejects with AbortError when aborted during a Retry-After wait, leaving no timer', async () => {
    const target = await faultingServer({ fault: 'rate-limit', retryAfterMs: 30_000 });
    const before = timers();
    const controller = new AbortController();
    const call = timed(embedderOn(target).embed(['a'], { signal: controller.signal }));
    await waitFor(() => target.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const { error, ms } = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect(ms).toBeLessThan(5_000);
    expect(target.requests).toHaveLength(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('rejects bad retry and time options at construction with a ConfigError naming the option', () => {
    const model = 'text-embedding-3-small';
    const bad: [string, () => unknown][] = [
      ['timeoutMs', () => openaiEmbedder(model, { timeoutMs: 0 })],
      ['deadlineMs', () => openaiEmbedder(model, { deadlineMs: -5 })],
      ['maxRetryDelayMs', () => openaiEmbedder(model, { maxRetryDelayMs: Number.NaN })],
      ['initialRetryDelayMs', () => openaiEmbedder(model, { initialRetryDelayMs: -1 })],
      ['maxRetries', () => openaiEmbedder(model, { maxRetries: 1.5 })],
      ['dimensions', () => openaiEmbedder(model, { dimensions: 0 })],
      ['maxBatchSize', () => openaiEmbedder(model, { maxBatchSize: 0 })],
    ];
    for (const [option, construct] of bad) {
      expect(construct).toThrow(ConfigError);
      expect(construct).toThrow(new RegExp(`^openaiEmbedder: ${option} must be`));
    }
    expect(() =>
      openaiEmbedder(model, { maxRetryDelayMs: 0, initialRetryDelayMs: 0, deadlineMs: 1, maxRetries: 0 }),
    ).not.toThrow();
  });
});
