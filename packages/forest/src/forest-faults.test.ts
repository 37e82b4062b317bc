// A forest over the real OpenAI SDK and a faulty server: transient faults are retried below the
// forest and the routed agent answers; a fault that outlasts the retries fails the run with a typed
// error and closes the trace.
import { ModelError, openaiModel, type SwarmEvent } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForestSwarm } from './forest-swarm.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

let server: MockProviderServer;
beforeEach(async () => {
  server = await mockProviderServer();
});
afterEach(async () => {
  await server.close();
});

function forest() {
  const model = openaiModel('gpt-5.4', {
    apiKey: 'test-key',
    baseURL: server.openaiBaseURL,
    initialRetryDelayMs: 1,
    maxRetries: 3,
    timeoutMs: 5_000,
  });
  return new ForestSwarm({
    name: 'finance',
    trees: [
      new Tree({
        name: 'Finance',
        agents: [
          new TreeAgent({
            name: 'Tax Expert',
            systemPrompt: 'Corporate taxation and tax filing for businesses.',
            model,
          }),
          new TreeAgent({
            name: 'Stock Analyst',
            systemPrompt: 'Stock markets, shares and portfolios.',
            model,
          }),
        ],
      }),
    ],
  });
}

describe('ForestSwarm under provider faults', () => {
  it('routes and answers through a 503, a reset mid-body and a 429', async () => {
    server.enqueue(
      { fault: 'server-error', status: 503, retryAfterMs: 1 },
      { fault: 'reset', at: 'mid-body' },
      { fault: 'rate-limit', retryAfterMs: 1 },
      { text: 'File form 1120.' },
    );
    const result = await forest().run('How do I file corporate taxes?');
    expect(result).toMatchObject({
      output: 'File form 1120.',
      llmCalls: 1,
      decision: { agent: 'Tax Expert' },
    });
    expect(server.requests).toHaveLength(4);
  });

  it('fails with a typed, non-retryable ModelError on a 400 and closes the trace', async () => {
    server.enqueue({ fault: 'server-error', status: 400 });
    const events: SwarmEvent[] = [];
    const error = await forest()
      .run('How do I file corporate taxes?', { onEvent: (e) => events.push(e) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run.error', code: 'MODEL' });
  });
});
