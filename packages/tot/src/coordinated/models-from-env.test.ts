import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { modelsFromEnv } from './models-from-env.js';

describe('modelsFromEnv', () => {
  it("reads the seed's per-role variables in provider:model form", () => {
    const models = modelsFromEnv({
      PLANNER_MODEL_CONFIG: 'openrouter:google/gemini-2.5-pro',
      CRITIC_MODEL_CONFIG: ' openai:gpt-4o ',
      COORDINATOR_MODEL_CONFIG: 'google:gemini-2.0-flash',
      ANALYZER_MODEL_CONFIG: '',
    });
    expect(models).toEqual({
      planner: 'openrouter:google/gemini-2.5-pro',
      critic: 'openai:gpt-4o',
      coordinator: 'google:gemini-2.0-flash',
    });
  });

  it('refuses a value that is not provider:model, naming the variable, instead of falling back silently', () => {
    expect(() => modelsFromEnv({ RESEARCHER_MODEL_CONFIG: 'gemini-2.0-flash' })).toThrow(ConfigError);
    expect(() => modelsFromEnv({ RESEARCHER_MODEL_CONFIG: 'gemini-2.0-flash' })).toThrow(
      /RESEARCHER_MODEL_CONFIG must be "provider:model"/,
    );
    for (const value of [':gpt-4o', 'openai:']) {
      expect(() => modelsFromEnv({ PLANNER_MODEL_CONFIG: value })).toThrow(
        /PLANNER_MODEL_CONFIG must be "provider:model"/,
      );
    }
    expect(() => modelsFromEnv({ SYNTHESIZER_MODEL_CONFIG: 'nope:model' })).toThrow(
      /SYNTHESIZER_MODEL_CONFIG: resolveModel: unknown provider "nope"/,
    );
  });
});
