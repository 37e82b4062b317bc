import OpenAI from 'openai';
import { lazyClient } from './provider-settings.js';

/** Where and how to reach an OpenAI-compatible server; shared by chat models and embedders. */
export interface OpenAIConnectionOptions {
  /** The API key; defaults to the `apiKeyEnv` variable, read at the first call. */
  apiKey?: string;
  /** The endpoint; defaults to the `baseURLEnv` variable, then `defaultBaseURL`. */
  baseURL?: string;
  /**
   * Retries on 408/409/429/5xx and connection errors, honouring Retry-After (default 2): swarm's
   * own for chat models and `openaiEmbedder` (see `ProviderCallOptions`), the SDK's for clients
   * used directly.
   */
  maxRetries?: number;
  organization?: string;
  defaultHeaders?: Record<string, string>;
  /** The provider name used in ids and errors (default `'openai'`). */
  provider?: string;
  /** The environment variable holding the key (default `OPENAI_API_KEY`). */
  apiKeyEnv?: string;
  /** The environment variable holding the endpoint (default `OPENAI_BASE_URL`). */
  baseURLEnv?: string;
  /** The endpoint when neither `baseURL` nor the variable is set (default `https://api.openai.com/v1`). */
  defaultBaseURL?: string;
  /** False for local servers (Ollama, vLLM, LM Studio): a missing key is then replaced by a placeholder. */
  requireApiKey?: boolean;
  /** A ready SDK client, used as is (key and endpoint options are then ignored). */
  client?: OpenAI;
}

/**
 * Returns a getter that creates the `openai` SDK client at its first use, so that constructing a
 * model never reads the environment and a missing key is a ConfigError at the first call.
 */
export function lazyOpenAIClient(
  options: OpenAIConnectionOptions,
  /**
   * Request defaults of the client created here (never of a `client` given in the options): a
   * provider that runs its own retries sets `{ maxRetries: 0, timeout }` once here rather than on
   * every request (an explicit per-request `timeout` costs each request an extra header).
   */
  sdkDefaults: { timeout?: number; maxRetries?: number } = {},
): () => OpenAI {
  const provider = options.provider ?? 'openai';
  return lazyClient(
    {
      provider,
      apiKey: options.apiKey,
      apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
      requireApiKey: options.requireApiKey ?? true,
      baseURL: options.baseURL,
      baseURLEnv: options.baseURLEnv ?? 'OPENAI_BASE_URL',
      defaultBaseURL: options.defaultBaseURL ?? 'https://api.openai.com/v1',
      client: options.client,
    },
    (settings) =>
      new OpenAI({
        ...settings,
        // Other servers must not receive the OPENAI_ORG_ID / OPENAI_PROJECT_ID headers the SDK reads from env.
        organization: options.organization ?? (provider === 'openai' ? undefined : null),
        project: provider === 'openai' ? undefined : null,
        ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
        ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
        ...sdkDefaults,
      }),
  );
}
