// A Team over real provider SDKs and a faulty server: transient faults are retried below the
// Team and the session gets the turn; a fault that outlasts the retries fails the run with a typed
// error, closes the trace, and leaves the session as it was, so nothing half-done is saved.
import { Agent, ModelError, openaiModel, type SwarmEvent } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemorySessionStore } from './session-store.js';
import { Team } from './team.js';

let server: MockProviderServer;
beforeEach(async () => {
  server = await mockProviderServer();
});
afterEach(async () => {
  await server.close();
});

function desk(sessions: InMemorySessionStore) {
  const model = openaiModel('gpt-5.4', {
    apiKey: 'test-key',
    baseURL: server.openaiBaseURL,
    initialRetryDelayMs: 1,
    timeoutMs: 5_000,
  });
  const agent = new Agent({ name: 'desk', model });
  return Team.swarm({ agents: { desk: agent }, entryAgent: 'desk', sessions });
}

describe('Team.swarm under provider faults', () => {
  it('completes through a 503, a reset and a 429, and saves the turn', async () => {
    const sessions = new InMemorySessionStore();
    server.enqueue(
      { fault: 'server-error', status: 503, retryAfterMs: 1 },
      { fault: 'reset', at: 'before-headers' },
      { text: 'Hello.' },
    );
    await expect(desk(sessions).run('hi', { sessionId: 's' })).resolves.toMatchObject({ output: 'Hello.' });
    expect(server.requests).toHaveLength(3);
    expect((await sessions.get('s'))?.history).toHaveLength(2);
  });

  it('fails a run the provider will not serve for an hour with a retryable ModelError, saving nothing', async () => {
    const sessions = new InMemorySessionStore();
    await sessions.set('s', { history: [{ type: 'request', content: 'earlier' }], lastAgent: 'desk' });
    const events: SwarmEvent[] = [];
    server.enqueue({ fault: 'rate-limit', retryAfterSeconds: 3600 });
    const error = await desk(sessions)
      .run('hi', { sessionId: 's', onEvent: (event) => events.push(event) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
    expect(events.at(-1)?.type).toBe('run.error');
    expect(await sessions.get('s')).toEqual({
      history: [{ type: 'request', content: 'earlier' }],
      lastAgent: 'desk',
      version: 1,
    });
  });
});
