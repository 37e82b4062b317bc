import OpenAI from 'openai';
import type { OpenAIRequestOptions } from './openai-client-shape.js';
import {
  type CallPolicy,
  type ClassifyError,
  callPolicy,
  type ProviderCallOptions,
} from './provider-call.js';
import { sdkErrorClassesOf, toSwarmError } from './provider-error.js';
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
}

/**
 * Returns a getter that creates the `openai` SDK client at its first use, so that constructing a
 * model never reads the environment and a missing key is a ConfigError at the first call. A
 * `client` in the options (any shape: see `OpenAIChatClient`) is returned as is.
 */
export function lazyOpenAIClient<Client = OpenAI>(
  options: OpenAIConnectionOptions & { client?: Client | undefined },
  /**
   * Request defaults of the client created here (never of a `client` given in the options): a
   * provider that runs its own retries sets `{ maxRetries: 0, timeout }` once here rather than on
   * every request (an explicit per-request `timeout` costs each request an extra header).
   */
  sdkDefaults: { timeout?: number; maxRetries?: number } = {},
): () => Client | OpenAI {
  const provider = options.provider ?? 'openai';
  return lazyClient<Client | OpenAI>(
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

/** What a provider over an `openai` client needs to run its requests with swarm's retry policy. */
export interface OpenAICallSetup<Client> {
  /** The retry policy (see `callPolicy`). */
  policy: CallPolicy;
  /**
   * The `client` given in the options, else a client of the pinned SDK created at the first call
   * with the attempt timeout and no retries of its own.
   */
  getClient: () => Client | OpenAI;
  /** A request's options: its attempt signal, plus the timeout and no retries when `client` lacks them. */
  requestOptions: (
    client: { readonly timeout?: number; readonly maxRetries?: number },
    signal: AbortSignal,
  ) => OpenAIRequestOptions;
  /** Turns what the client threw into a swarm error, by the error classes of the client's own SDK. */
  classify: ClassifyError;
}

/**
 * The setup `openaiModel` and `openaiEmbedder` share (options already validated). Every attempt
 * runs on a real AbortSignal (see `callWithRetries`). The client created here already has the
 * attempt timeout and no retries; a client given in the options is told them per request (an
 * explicit per-request `timeout` costs every request an extra header, so it is sent only where
 * needed). Errors are classified by the given client's own SDK (an `openai` 6 client throws 6's
 * error classes), found on its class as every Stainless SDK puts them.
 */
export function openaiCallSetup<Client = OpenAI>(
  provider: string,
  options: OpenAIConnectionOptions & ProviderCallOptions & { client?: Client | undefined },
): OpenAICallSetup<Client> {
  const policy = callPolicy(provider, options);
  const timeout = Math.ceil(policy.timeoutMs);
  const sdk = (options.client !== undefined && sdkErrorClassesOf(options.client)) || OpenAI;
  return {
    policy,
    getClient: lazyOpenAIClient(options, { timeout, maxRetries: 0 }),
    requestOptions: (client, signal) =>
      client.timeout === timeout && client.maxRetries === 0 ? { signal } : { signal, timeout, maxRetries: 0 },
    classify: (error) => toSwarmError(error, { provider, sdk, timeoutMs: policy.timeoutMs }),
  };
}
