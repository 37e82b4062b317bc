import type OpenAI from 'openai';
import { registerSecret } from '../kernel/redact-secrets.js';
import type { OpenAIRequestOptions } from './openai-client-shape.js';
import {
  type CallPolicy,
  type ClassifyError,
  callPolicy,
  type ProviderCallOptions,
} from './provider-call.js';
import { sdkErrorClassesOf, toSwarmError } from './provider-error.js';
import { resolveProviderSettings } from './provider-settings.js';

type OpenAISdk = typeof import('openai');

let sdkModule: Promise<OpenAISdk> | undefined;
let loadedSdk: OpenAISdk | undefined;

/**
 * Loads the `openai` SDK at the first OpenAI(-compatible) call, so that importing `@swarm/core`,
 * or using only Anthropic, loads none of it (and a bundler can leave it in a chunk of its own).
 * Internal to the package.
 */
export function loadOpenAISdk(): Promise<OpenAISdk> {
  sdkModule ??= import('openai').then(
    (sdk) => {
      loadedSdk = sdk;
      return sdk;
    },
    (error: unknown) => {
      sdkModule = undefined;
      throw error;
    },
  );
  return sdkModule;
}

/** The `openai` SDK once `loadOpenAISdk` has loaded it, else undefined. Internal to the package. */
export function openaiSdkIfLoaded(): OpenAISdk | undefined {
  return loadedSdk;
}

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
  const input = {
    provider,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
    requireApiKey: options.requireApiKey ?? true,
    baseURL: options.baseURL,
    baseURLEnv: options.baseURLEnv ?? 'OPENAI_BASE_URL',
    defaultBaseURL: options.defaultBaseURL ?? 'https://api.openai.com/v1',
  };
  let client: Client | OpenAI | undefined = options.client;
  // A client the user made holds its key (every Stainless SDK client keeps `apiKey`).
  registerSecret((client as { apiKey?: unknown } | undefined)?.apiKey);
  const create = (sdk: OpenAISdk, settings: { apiKey: string; baseURL: string | undefined }): OpenAI =>
    new sdk.default({
      ...settings,
      // Other servers must not receive the OPENAI_ORG_ID / OPENAI_PROJECT_ID headers the SDK reads from env.
      organization: options.organization ?? (provider === 'openai' ? undefined : null),
      project: provider === 'openai' ? undefined : null,
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
      ...sdkDefaults,
    });
  return () => {
    if (client !== undefined) return client;
    // Read at the first use, loaded or not: a missing key is a ConfigError here, at once.
    const settings = resolveProviderSettings(input);
    const sdk = loadedSdk;
    if (sdk !== undefined) {
      client = create(sdk, settings);
      return client;
    }
    // The SDK is not loaded yet: a stand-in whose calls load it, then go to the real client.
    const real = loadOpenAISdk().then((loaded) => {
      client ??= create(loaded, settings);
      return client as OpenAI;
    });
    return standIn(real, sdkDefaults) as unknown as OpenAI;
  };
}

/**
 * What a client of `lazyOpenAIClient` is before the SDK has loaded: the methods swarm calls (chat
 * completions, embeddings), each loading the SDK first, and the client's request defaults.
 */
function standIn(real: Promise<OpenAI>, defaults: { timeout?: number; maxRetries?: number }) {
  return {
    ...(defaults.timeout !== undefined && { timeout: defaults.timeout }),
    ...(defaults.maxRetries !== undefined && { maxRetries: defaults.maxRetries }),
    chat: {
      completions: {
        create: (params: unknown, options?: unknown) =>
          real.then((client) =>
            (client.chat.completions.create as (p: unknown, o?: unknown) => unknown)(params, options),
          ),
      },
    },
    embeddings: {
      create: (params: unknown, options?: unknown) =>
        real.then((client) =>
          (client.embeddings.create as (p: unknown, o?: unknown) => unknown)(params, options),
        ),
    },
  };
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
  const given = options.client === undefined ? undefined : sdkErrorClassesOf(options.client);
  return {
    policy,
    getClient: lazyOpenAIClient(options, { timeout, maxRetries: 0 }),
    requestOptions: (client, signal) =>
      client.timeout === timeout && client.maxRetries === 0 ? { signal } : { signal, timeout, maxRetries: 0 },
    // Before the SDK has loaded, nothing can have thrown one of its errors.
    classify: (error) =>
      toSwarmError(error, { provider, sdk: given ?? loadedSdk?.default, timeoutMs: policy.timeoutMs }),
  };
}
