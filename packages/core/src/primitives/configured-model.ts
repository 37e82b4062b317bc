/**
 * The model this environment is set up for, or undefined when none is: `SWARM_MODEL` when set
 * (any `resolveModel` string, e.g. `ollama:llama3.2`), else `gpt-5.4` with `OPENAI_API_KEY`, else
 * `claude-opus-4-7` with `ANTHROPIC_API_KEY`. Examples use it to run for real or explain themselves.
 * `env` defaults to `process.env`, or to no variable where there is none (a browser).
 */
export function configuredModel(
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string | undefined {
  if (env.SWARM_MODEL) return env.SWARM_MODEL;
  if (env.OPENAI_API_KEY) return 'gpt-5.4';
  if (env.ANTHROPIC_API_KEY) return 'claude-opus-4-7';
  return undefined;
}

/** One sentence telling a user how to configure a model, for examples and CLIs. */
export const configureModelHint =
  'Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or SWARM_MODEL to any model string (for example SWARM_MODEL=ollama:llama3.2 with a local Ollama).';
