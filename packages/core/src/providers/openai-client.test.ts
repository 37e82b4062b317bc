// lazyOpenAIClient before and after the `openai` SDK has loaded: a stand-in that loads it at its
// first call, then the real client. A fresh module registry per test file: nothing has loaded it yet.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError } from '../kernel/errors.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { lazyOpenAIClient, openaiSdkIfLoaded } from './openai-client.js';

let server: MockProviderServer;

beforeAll(async () => {
  server = await mockProviderServer();
});

afterAll(async () => {
  await server.close();
});

it('gives a stand-in that loads the SDK at its first call, then the real client', async () => {
  expect(openaiSdkIfLoaded()).toBeUndefined();
  const getClient = lazyOpenAIClient({ apiKey: 'k', baseURL: server.openaiBaseURL }, { maxRetries: 0 });
  const first = getClient();
  expect(first.maxRetries).toBe(0);
  server.enqueue({ text: 'hello' });
  const completion = await first.chat.completions.create({
    model: 'gpt-5.4',
    messages: [{ role: 'user', content: 'hi' }],
  });
  expect(completion.choices[0]?.message.content).toBe('hello');
  const sdk = openaiSdkIfLoaded();
  expect(sdk).toBeDefined();
  const real = getClient();
  expect(real).toBeInstanceOf(sdk!.default);
  expect(getClient()).toBe(real);
});

it('throws a ConfigError for a missing key at the first use, before anything loads', () => {
  const getClient = lazyOpenAIClient({ apiKeyEnv: 'SWARM_TEST_NO_SUCH_KEY' });
  expect(() => getClient()).toThrow(ConfigError);
});
