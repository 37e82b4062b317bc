// Usage fields are outside data: whatever a provider sends in them, only finite non-negative
// numbers reach a run's totals; anything else is replaced by the estimate and flagged `estimated`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Model, ModelRequest, Usage } from '../contracts/model.js';
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

const providers = {
  openai: (): Model =>
    openaiModel('gpt-5.4', { apiKey: 'test-key', baseURL: server.openaiBaseURL, maxRetries: 0 }),
  anthropic: (): Model =>
    anthropicModel('claude-opus-4-7', {
      apiKey: 'test-key',
      baseURL: server.anthropicBaseURL,
      maxRetries: 0,
    }),
};

const request: ModelRequest = { messages: [{ role: 'user', content: 'Say something short, please.' }] };

async function usageOf(model: Model, mode: 'generate' | 'stream'): Promise<Usage> {
  if (mode === 'generate') return (await model.generate(request)).usage;
  for await (const event of model.stream!(request)) if (event.type === 'finish') return event.response.usage;
  throw new Error('the stream ended without a finish event');
}

/** Hostile values a provider (or something in the middle) might put in a usage count. */
const hostile: Record<string, unknown> = {
  'a <script> string': '<script>alert(1)</script>',
  'an <img onerror> string': '<img src=x onerror=alert(1)>',
  'a numeric string': '12',
  'a negative number': -5,
  'an object': { tokens: 3 },
};

const fields = ['inputTokens', 'outputTokens', 'cachedTokens', 'reasoningTokens', 'totalTokens'] as const;

describe.each(Object.keys(providers) as (keyof typeof providers)[])('%s usage validation', (provider) => {
  describe.each(['generate', 'stream'] as const)('%s', (mode) => {
    it.each(Object.keys(hostile))('replaces %s in any usage field by an estimate, flagged', async (name) => {
      for (const field of fields) {
        // Anthropic has no total on the wire: swarm adds input and output itself.
        if (provider === 'anthropic' && field === 'totalTokens') continue;
        server.enqueue({
          text: 'A short answer.',
          usage: { inputTokens: 7, outputTokens: 4, [field]: hostile[name] } as unknown as Partial<Usage>,
        });
        const usage = await usageOf(providers[provider](), mode);
        expect(usage.estimated, `${field} = ${String(hostile[name])}`).toBe(true);
        for (const count of fields) {
          expect(Number.isFinite(usage[count]) && usage[count] >= 0, `${field}: ${count}`).toBe(true);
        }
        expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
      }
    });

    it('keeps a well-formed usage as reported, unflagged', async () => {
      server.enqueue({ text: 'A short answer.', usage: { inputTokens: 7, outputTokens: 4 } });
      const usage = await usageOf(providers[provider](), mode);
      expect(usage).toMatchObject({ inputTokens: 7, outputTokens: 4, totalTokens: 11 });
      expect(usage.estimated).toBeUndefined();
    });
  });
});
