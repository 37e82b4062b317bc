import { describe, expect, it } from 'vitest';
import { configuredModel } from './configured-model.js';

describe('configuredModel', () => {
  it('prefers SWARM_MODEL, then an OpenAI key, then an Anthropic key', () => {
    expect(configuredModel({ SWARM_MODEL: 'ollama:llama3.2', OPENAI_API_KEY: 'k' })).toBe('ollama:llama3.2');
    expect(configuredModel({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' })).toBe('gpt-5.4');
    expect(configuredModel({ ANTHROPIC_API_KEY: 'k' })).toBe('claude-opus-4-7');
  });

  it('says none is configured when no variable is set', () => {
    expect(configuredModel({})).toBeUndefined();
  });
});
