// A provider's error body may echo the API key (a 401 quoting it): the key never reaches an error
// message, a trace event, or the SDK error kept as the cause.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import { errorMessage } from '../kernel/errors.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

const key = 'sk-test-0123456789abcdefSECRET';
const providers = {
  openai: () => openaiModel('gpt-5.4', { apiKey: key, baseURL: server.openaiBaseURL, maxRetries: 0 }),
  anthropic: () =>
    anthropicModel('claude-opus-4-7', { apiKey: key, baseURL: server.anthropicBaseURL, maxRetries: 0 }),
};

/** Every string reachable from `value`, the cause chain of errors included. */
function allText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || seen.has(value)) return '';
  seen.add(value);
  const parts: string[] = [];
  if (value instanceof Error) parts.push(value.message, allText(value.cause, seen));
  for (const field of Object.values(value)) parts.push(allText(field, seen));
  return parts.join('\n');
}

describe.each(Object.keys(providers) as (keyof typeof providers)[])(
  '%s: a 401 that echoes the key',
  (name) => {
    it.each([false, true])(
      'never puts the key in the error, its cause or the trace (textDeltas %s)',
      async (streamed) => {
        server.enqueue({
          fault: 'server-error',
          status: 401,
          message: `Incorrect API key provided: ${key}. You can find your API key in your account.`,
        });
        const events: SwarmEvent[] = [];
        const agent = new Agent({ name: 'writer', model: providers[name]() });
        const error = await agent
          .run('Write a haiku.', { onEvent: (e) => events.push(e), ...(streamed && { textDeltas: true }) })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(error).toMatchObject({ code: 'MODEL', status: 401 });
        expect(errorMessage(error)).toContain('Incorrect API key provided: [redacted]');
        expect(allText(error)).not.toContain(key);
        expect(JSON.stringify(events)).not.toContain(key);
        expect(events.some((e) => e.type === 'model.error')).toBe(true);
      },
    );
  },
);
