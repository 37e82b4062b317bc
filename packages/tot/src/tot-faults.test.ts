// A Tree of Thoughts over the real Anthropic SDK and a faulty server: every step is a forced
// function call, so transient faults are retried below the search and the search completes; a
// provider that will not answer for an hour fails the search with a typed, retryable error at once.
import { anthropicModel, ModelError } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NoAnswerError } from './errors.js';
import { TreeOfThoughts } from './tree-of-thoughts.js';

let server: MockProviderServer;
beforeEach(async () => {
  server = await mockProviderServer();
});
afterEach(async () => {
  await server.close();
});

function search() {
  const model = anthropicModel('claude-opus-4-7', {
    apiKey: 'test-key',
    baseURL: server.anthropicBaseURL,
    initialRetryDelayMs: 1,
    timeoutMs: 5_000,
  });
  return new TreeOfThoughts({ model, numThoughts: 1, maxDepth: 1, breadth: 1, searchAlgorithm: 'bfs' });
}

describe('TreeOfThoughts under provider faults', () => {
  it('completes through a 529 overload and a reset before headers', async () => {
    server.enqueue(
      { fault: 'server-error', status: 529, retryAfterMs: 1 },
      {
        toolCalls: [
          { name: 'propose_thoughts', arguments: { thoughts: [{ thought: '6 * 4 = 24', isFinal: true }] } },
        ],
      },
      { fault: 'reset', at: 'before-headers' },
      { toolCalls: [{ name: 'rate_thought', arguments: { critique: 'Correct.', score: 1 } }] },
      { toolCalls: [{ name: 'final_answer', arguments: { answer: '6 * 4 = 24' } }] },
    );
    const result = await search().search('Use 6 and 4 to make 24.');
    expect(result).toMatchObject({ solved: true, llmCalls: 3 });
    expect(result.answer).toBe('6 * 4 = 24');
    expect(server.requests).toHaveLength(5);
  });

  it('fails at once with NoAnswerError, caused by a retryable ModelError carrying the delay, when Retry-After is an hour', async () => {
    await server.close();
    server = await mockProviderServer({ handler: () => ({ fault: 'rate-limit', retryAfterSeconds: 3600 }) });
    const started = performance.now();
    const error = await search()
      .search('Use 6 and 4 to make 24.')
      .catch((caught: unknown) => caught);
    // Each step's failure is a warning the search goes on past; the answer call's is the cause.
    expect(error).toBeInstanceOf(NoAnswerError);
    expect((error as NoAnswerError).cause).toBeInstanceOf(ModelError);
    expect((error as NoAnswerError).cause).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 3_600_000,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
