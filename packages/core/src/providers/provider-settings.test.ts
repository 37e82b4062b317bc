import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../kernel/errors.js';
import { resolveProviderSettings } from './provider-settings.js';

const input = {
  provider: 'OpenAI',
  apiKeyEnv: 'SWARM_TEST_KEY',
  requireApiKey: true,
  baseURLEnv: 'SWARM_TEST_BASE_URL',
} as const;

describe('resolveProviderSettings', () => {
  afterEach(() => {
    delete process.env.SWARM_TEST_KEY;
    delete process.env.SWARM_TEST_BASE_URL;
  });

  it('takes the options first, then the environment variables, read at call time', () => {
    process.env.SWARM_TEST_KEY = ' from-env ';
    process.env.SWARM_TEST_BASE_URL = 'http://127.0.0.1:1/v1';
    expect(resolveProviderSettings(input)).toEqual({ apiKey: 'from-env', baseURL: 'http://127.0.0.1:1/v1' });
    expect(resolveProviderSettings({ ...input, apiKey: 'given', baseURL: 'http://127.0.0.1:2/v1' })).toEqual({
      apiKey: 'given',
      baseURL: 'http://127.0.0.1:2/v1',
    });
  });

  it('names the variable when the key is missing', () => {
    expect(() => resolveProviderSettings(input)).toThrow(ConfigError);
    expect(() => resolveProviderSettings(input)).toThrow(/SWARM_TEST_KEY/);
  });

  it('works in a runtime with no process (a browser, an edge worker): the options alone decide', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    let given: unknown;
    let missing: unknown;
    try {
      given = resolveProviderSettings({ ...input, apiKey: 'given', defaultBaseURL: 'https://api.example' });
      try {
        resolveProviderSettings(input);
      } catch (error) {
        missing = error;
      }
    } finally {
      Object.defineProperty(globalThis, 'process', descriptor);
    }
    expect(given).toEqual({ apiKey: 'given', baseURL: 'https://api.example' });
    expect(missing).toBeInstanceOf(ConfigError);
  });
});
