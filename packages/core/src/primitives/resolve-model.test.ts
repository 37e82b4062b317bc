import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Model } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { openaiCompatiblePresets } from '../providers/openai-compatible.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { registerProvider, resolveModel } from './resolve-model.js';

let server: MockProviderServer;

beforeAll(async () => {
  server = await mockProviderServer({
    handler: (request) => ({ text: `model ${String(request.body.model)}` }),
  });
});

afterAll(async () => {
  await server.close();
});

/** Runs `fn` with some environment variables set (or removed, for `undefined`), then restores them. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

function fakeModel(id: string): Model {
  return {
    id,
    generate: async () => ({
      text: id,
      toolCalls: [],
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, totalTokens: 0 },
      finishReason: 'stop',
      modelId: id,
    }),
  };
}

describe('resolveModel', () => {
  it.each([
    ['openai:gpt-5.4', 'openai:gpt-5.4'],
    ['anthropic:claude-opus-4-7', 'anthropic:claude-opus-4-7'],
    ['ollama:llama3.2', 'ollama:llama3.2'],
    ['vllm:Qwen/Qwen3-8B', 'vllm:Qwen/Qwen3-8B'],
    ['lmstudio:qwen3-4b', 'lmstudio:qwen3-4b'],
    ['openrouter:meta-llama/llama-4-maverick', 'openrouter:meta-llama/llama-4-maverick'],
    ['google:gemini-3.5-flash', 'google:gemini-3.5-flash'],
    ['groq:llama-3.3-70b-versatile', 'groq:llama-3.3-70b-versatile'],
    ['together:deepseek-ai/DeepSeek-V3', 'together:deepseek-ai/DeepSeek-V3'],
    ['deepseek:deepseek-chat', 'deepseek:deepseek-chat'],
    ['mistral:mistral-large-latest', 'mistral:mistral-large-latest'],
    ['xai:grok-4', 'xai:grok-4'],
    ['gpt-5.4', 'openai:gpt-5.4'],
    ['o4-mini', 'openai:o4-mini'],
    ['chatgpt-4o-latest', 'openai:chatgpt-4o-latest'],
    ['claude-opus-4-7', 'anthropic:claude-opus-4-7'],
  ])('resolves %s to a Model with id %s', (spec, id) => {
    const model = resolveModel(spec);
    expect(model.id).toBe(id);
    expect(typeof model.generate).toBe('function');
    expect(typeof model.stream).toBe('function');
  });

  it('resolves without any API key set, leaving the key check to the first call', () => {
    return withEnv({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined }, async () => {
      expect(resolveModel('openai:gpt-5.4').id).toBe('openai:gpt-5.4');
      await expect(resolveModel('openai:gpt-5.4').generate({ messages: [] })).rejects.toThrow(
        /OPENAI_API_KEY/,
      );
    });
  });

  it('sends each OpenAI-compatible preset to the endpoint and key of its own variables', async () => {
    for (const preset of openaiCompatiblePresets) {
      const key = `key-for-${preset.provider}`;
      const model = resolveModel(`${preset.provider}:some-model`);
      const response = await withEnv(
        { [preset.baseURLEnv]: server.openaiBaseURL, [preset.apiKeyEnv]: key, OPENAI_API_KEY: undefined },
        () => model.generate({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 }),
      );
      expect(response.text).toBe('model some-model');
      const request = server.requests.at(-1);
      expect(request?.headers.authorization).toBe(`Bearer ${key}`);
      expect(request?.body.max_tokens).toBe(5);
    }
  });

  it('calls local servers (ollama, vllm, lmstudio) without any key', async () => {
    for (const [provider, env] of [
      ['ollama', 'OLLAMA'],
      ['vllm', 'VLLM'],
      ['lmstudio', 'LMSTUDIO'],
    ] as const) {
      const response = await withEnv(
        {
          [`${env}_BASE_URL`]: server.openaiBaseURL,
          [`${env}_API_KEY`]: undefined,
          OPENAI_API_KEY: undefined,
        },
        () => resolveModel(`${provider}:tiny`).generate({ messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(response.text).toBe('model tiny');
    }
  });

  it('knows the usual local ports and hosted endpoints', () => {
    const urls = Object.fromEntries(
      openaiCompatiblePresets.map((preset) => [preset.provider, preset.defaultBaseURL]),
    );
    expect(urls).toMatchObject({
      ollama: 'http://localhost:11434/v1',
      vllm: 'http://localhost:8000/v1',
      lmstudio: 'http://localhost:1234/v1',
      openrouter: 'https://openrouter.ai/api/v1',
      google: 'https://generativelanguage.googleapis.com/v1beta/openai/',
      groq: 'https://api.groq.com/openai/v1',
    });
    const google = openaiCompatiblePresets.find((preset) => preset.provider === 'google');
    expect(google?.apiKeyEnv).toBe('GEMINI_API_KEY');
  });

  it('passes a Model object through unchanged', () => {
    const model = fakeModel('custom:thing');
    expect(resolveModel(model)).toBe(model);
  });

  it('rejects an unknown name with a ConfigError listing the accepted forms', () => {
    const error = (() => {
      try {
        resolveModel('llama3.2');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const form of [
      'openai:<model>',
      'anthropic:<model>',
      'ollama:<model>',
      'claude-*',
      'gpt-*',
      'o<digit>*',
    ]) {
      expect(message).toContain(form);
    }
  });

  it('rejects an unknown prefix and an empty model name with a ConfigError', () => {
    expect(() => resolveModel('nope:model')).toThrow(ConfigError);
    expect(() => resolveModel('nope:model')).toThrow(/unknown provider "nope"/);
    expect(() => resolveModel('openai:')).toThrow(ConfigError);
    expect(() => resolveModel('')).toThrow(ConfigError);
  });

  it('uses a registered provider for its prefix', () => {
    registerProvider('acme', (name) => fakeModel(`acme:${name}`));
    expect(resolveModel('acme:rocket-1').id).toBe('acme:rocket-1');
  });

  it('checks registered providers before the built-in ones', async () => {
    vi.resetModules();
    const fresh = await import('./resolve-model.js');
    fresh.registerProvider('ollama', (name) => fakeModel(`my-ollama:${name}`));
    fresh.registerProvider('anthropic', (name) => fakeModel(`my-anthropic:${name}`));
    expect(fresh.resolveModel('ollama:llama3.2').id).toBe('my-ollama:llama3.2');
    expect(fresh.resolveModel('claude-opus-4-7').id).toBe('my-anthropic:claude-opus-4-7');
    expect(resolveModel('ollama:llama3.2').id).toBe('ollama:llama3.2');
  });

  it('rejects a bad prefix or factory in registerProvider', () => {
    expect(() => registerProvider('', (name) => fakeModel(name))).toThrow(ConfigError);
    expect(() => registerProvider('has:colon', (name) => fakeModel(name))).toThrow(ConfigError);
  });
});
