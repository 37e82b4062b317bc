import { ConfigError, resolveModel } from '@swarm/core';

/** The seed's role variables: `PLANNER_MODEL_CONFIG`, ..., `COORDINATOR_MODEL_CONFIG`. */
const roleVariables = {
  planner: 'PLANNER_MODEL_CONFIG',
  researcher: 'RESEARCHER_MODEL_CONFIG',
  analyzer: 'ANALYZER_MODEL_CONFIG',
  critic: 'CRITIC_MODEL_CONFIG',
  synthesizer: 'SYNTHESIZER_MODEL_CONFIG',
  coordinator: 'COORDINATOR_MODEL_CONFIG',
} as const;

/** Model strings per role, as `modelsFromEnv` read them; a role whose variable is unset is absent. */
export type ModelsFromEnv = Partial<Record<keyof typeof roleVariables, string>>;

/**
 * Reads the seed's per-role variables (`PLANNER_MODEL_CONFIG=openrouter:google/gemini-2.5-pro`,
 * ...) into `models`. Each must be `provider:model`, a form `resolveModel` accepts; anything else
 * is a `ConfigError` naming the variable (the seed silently fell back to a default model). `env`
 * defaults to `process.env`, or to no variable where there is none (a browser).
 */
export function modelsFromEnv(
  env: Readonly<Record<string, string | undefined>> = globalThis.process?.env ?? {},
): ModelsFromEnv {
  const models: ModelsFromEnv = {};
  for (const [role, variable] of Object.entries(roleVariables) as [keyof ModelsFromEnv, string][]) {
    const value = env[variable]?.trim();
    if (value === undefined || value === '') continue;
    const colon = value.indexOf(':');
    if (colon <= 0 || colon === value.length - 1) {
      throw new ConfigError(
        `${variable} must be "provider:model" (for example "openai:gpt-5.4" or "openrouter:google/gemini-2.5-pro"); got ${JSON.stringify(value)}.`,
      );
    }
    try {
      resolveModel(value);
    } catch (error) {
      throw new ConfigError(`${variable}: ${error instanceof Error ? error.message : String(error)}`);
    }
    models[role] = value;
  }
  return models;
}
