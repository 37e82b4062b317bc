import { configuredModel } from '@swarm/core';

/** Where the default model came from, for the run's header line. */
export interface DefaultModel {
  model: string;
  source: string;
}

/**
 * The model for agents whose spec names none: `--model`, else `SWARM_MODEL`, `OPENAI_API_KEY` or
 * `ANTHROPIC_API_KEY`, else a local Ollama when one answers on its port. Undefined when none.
 */
export async function defaultModel(
  flag: string | undefined,
  env: Record<string, string | undefined> = process.env,
): Promise<DefaultModel | undefined> {
  if (flag) return { model: flag, source: '--model' };
  const configured = configuredModel(env);
  if (configured) {
    const source = env.SWARM_MODEL
      ? 'SWARM_MODEL'
      : env.OPENAI_API_KEY
        ? 'OPENAI_API_KEY'
        : 'ANTHROPIC_API_KEY';
    return { model: configured, source };
  }
  const ollama = await ollamaModel(env.OLLAMA_HOST ?? 'http://127.0.0.1:11434');
  return ollama ? { model: `ollama:${ollama}`, source: 'a local Ollama' } : undefined;
}

// The first model a local Ollama lists, if one answers within a moment (loopback only).
async function ollamaModel(host: string): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL('/api/tags', host.startsWith('http') ? host : `http://${host}`);
  } catch {
    return undefined;
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(400) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { models?: { name?: string }[] };
    return body.models?.find((m) => typeof m.name === 'string')?.name;
  } catch {
    return undefined;
  }
}

/** What to tell a user with no model configured. */
export const noModelHelp =
  'no model configured: set OPENAI_API_KEY or ANTHROPIC_API_KEY, set SWARM_MODEL (for example SWARM_MODEL=ollama:llama3.2), start a local Ollama, pass --model, or give each agent a model in the spec.';
