import { ConfigError } from '../kernel/errors.js';
import { isTimerMs, MAX_TIMER_MS } from '../kernel/option-checks.js';
import { registerSecret } from '../kernel/redact-secrets.js';

/** Where a provider finds its key and endpoint: explicit options first, then environment variables. */
export interface ProviderSettingsInput {
  provider: string;
  apiKey?: string | undefined;
  apiKeyEnv: string;
  requireApiKey: boolean;
  baseURL?: string | undefined;
  baseURLEnv: string;
  defaultBaseURL?: string | undefined;
}

/** The API key placeholder sent to local servers that need none (the SDKs refuse an empty key). */
export const PLACEHOLDER_API_KEY = 'not-needed';

type MaybeProcess = { process?: { env?: Record<string, string | undefined> } };

// A browser or an edge runtime may have no `process`: there the options alone decide.
function readEnv(name: string): string | undefined {
  const value = (globalThis as MaybeProcess).process?.env?.[name]?.trim();
  return value ? value : undefined;
}

/** Resolves the key and base URL at call time, so a missing key is a ConfigError naming its variable. */
export function resolveProviderSettings(input: ProviderSettingsInput): {
  apiKey: string;
  baseURL: string | undefined;
} {
  const apiKey = input.apiKey ?? readEnv(input.apiKeyEnv);
  registerSecret(apiKey);
  if (!apiKey && input.requireApiKey) {
    throw new ConfigError(
      `Missing API key for ${input.provider}: set the ${input.apiKeyEnv} environment variable or pass the apiKey option.`,
    );
  }
  return {
    apiKey: apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: input.baseURL ?? readEnv(input.baseURLEnv) ?? input.defaultBaseURL,
  };
}

/** Checks the options every provider shares, throwing a ConfigError that names the bad one. */
export function validateProviderOptions(
  factory: string,
  model: string,
  options: {
    timeoutMs?: number | undefined;
    maxRetries?: number | undefined;
    maxRetryDelayMs?: number | undefined;
    initialRetryDelayMs?: number | undefined;
    deadlineMs?: number | undefined;
  },
): void {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigError(`${factory}: model must be a non-empty string.`);
  }
  const { maxRetries } = options;
  for (const name of ['timeoutMs', 'deadlineMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new ConfigError(`${factory}: ${name} must be a positive number of milliseconds, got ${value}.`);
    }
    // A longer timer fires at once in Node (and the SDKs time out at once with it).
    if (value !== undefined && !isTimerMs(value)) {
      throw new ConfigError(
        `${factory}: ${name} must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest timer Node runs), got ${value}.`,
      );
    }
  }
  for (const name of ['maxRetryDelayMs', 'initialRetryDelayMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new ConfigError(`${factory}: ${name} must be a number of milliseconds >= 0, got ${value}.`);
    }
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new ConfigError(`${factory}: maxRetries must be an integer >= 0, got ${maxRetries}.`);
  }
}

/**
 * Returns a getter that builds an SDK client at its first use from the resolved key and endpoint,
 * so that constructing a model never reads the environment and a missing key is a ConfigError at
 * the first call. A ready `client` is returned as is.
 */
export function lazyClient<C>(
  input: ProviderSettingsInput & { client?: C | undefined },
  create: (settings: { apiKey: string; baseURL: string | undefined }) => C,
): () => C {
  let client = input.client;
  // A client the user made holds its key (every Stainless SDK client keeps `apiKey`).
  registerSecret((client as { apiKey?: unknown } | undefined)?.apiKey);
  return () => {
    client ??= create(resolveProviderSettings(input));
    return client;
  };
}
