import { AbortError, ModelError, SwarmError } from '../kernel/errors.js';
import { raceSignal } from '../kernel/linked-signal.js';
import { redactSecrets } from '../kernel/redact-secrets.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one Stainless-generated SDK (`openai`, `@anthropic-ai/sdk`), for `toSwarmError`. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

/**
 * The error classes of the SDK `client` was made with, or undefined when it is not a client of a
 * Stainless-generated SDK: each such SDK's client class carries them as statics, so a client of
 * another major or another copy of the SDK is classified by its own classes.
 */
export function sdkErrorClassesOf(client: unknown): SdkErrorClasses | undefined {
  if (typeof client !== 'object' || client === null) return undefined;
  const sdk = (client as { constructor?: unknown }).constructor as Partial<
    Record<keyof SdkErrorClasses, unknown>
  >;
  return typeof sdk?.APIError === 'function' &&
    typeof sdk.APIUserAbortError === 'function' &&
    typeof sdk.APIConnectionError === 'function' &&
    typeof sdk.APIConnectionTimeoutError === 'function'
    ? (sdk as SdkErrorClasses)
    : undefined;
}

const retryableErrorTypes = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** HTTP statuses worth another attempt: request timeout, lock conflict, rate limit and server errors. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

/** Turns anything an SDK call threw (`sdk`: its error classes, when loaded) into an `AbortError` (the caller cancelled) or a `ModelError`. */
export function toSwarmError(
  error: unknown,
  details: {
    provider: string;
    signal?: AbortSignal | undefined;
    sdk?: SdkErrorClasses | undefined;
    /** The request timeout the SDK was given, named in the message when the SDK's own timer fired. */
    timeoutMs?: number | undefined;
  },
): SwarmError {
  const { provider, signal, sdk, timeoutMs } = details;
  if (SwarmError.isInstance(error)) return error;
  hideSecrets(error);
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError)) {
    return new AbortError(`The ${provider} call was aborted.`, { cause: signal?.reason ?? error });
  }
  let message = redactSecrets(error instanceof Error ? error.message : String(error));
  if (sdk && error instanceof sdk.APIConnectionTimeoutError) {
    const after = timeoutMs === undefined ? '' : ` after ${timeoutMs} ms`;
    return new ModelError(`${provider}: the request timed out${after}.`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (sdk && error instanceof sdk.APIConnectionError) {
    return new ModelError(`${provider}: connection failed: ${message}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (sdk && error instanceof sdk.APIError) {
    const { status, type, headers } = error as Error & {
      status?: unknown;
      type?: unknown;
      headers?: unknown;
    };
    const httpStatus = typeof status === 'number' ? status : undefined;
    // Anthropic's body nests its message (`{type: 'error', error: {type, message}}`), which the
    // SDK prints as raw JSON: the message is what the server said.
    const nested = nestedMessage((error as { error?: unknown }).error);
    if (nested !== undefined) {
      const said = redactSecrets(httpStatus === undefined ? nested : `${httpStatus} ${nested}`);
      message = said;
    }
    // The server may say outright whether a retry helps; else an error event inside a 200 stream
    // (no status) tells by its type, and an HTTP error by its status.
    const shouldRetry = headers instanceof Headers ? headers.get('x-should-retry') : null;
    const retryable =
      shouldRetry === 'true' ||
      (shouldRetry !== 'false' &&
        (httpStatus === undefined
          ? typeof type === 'string' && retryableErrorTypes.has(type)
          : isRetryableStatus(httpStatus)));
    return new ModelError(`${provider}: ${message}`, {
      provider,
      status: httpStatus,
      retryable,
      cause: error,
    });
  }
  if (isNetworkError(error)) {
    return new ModelError(`${provider}: connection failed: ${redactSecrets(networkMessage(error))}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    // A 200 whose body is not the JSON (or event stream) the API promises: a server or proxy fault.
    return new ModelError(`${provider}: the response was not valid JSON: ${message}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  return new ModelError(`${provider}: ${message}`, { provider, retryable: false, cause: error });
}

// The SDK's error is kept as the cause, which loggers print too: its message and the fields it
// parsed from the body (`error`, `apiMessage`, ...) must not carry a key either.
function hideSecrets(error: unknown): void {
  if (!(error instanceof Error)) return;
  const fields = error as unknown as Record<string, unknown>;
  for (const name of ['message', ...Object.keys(error)]) {
    const value = fields[name];
    if (name === 'cause' || name === 'headers' || value === null || value === undefined) continue;
    const text =
      typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : undefined;
    if (text === undefined || redactSecrets(text) === text) continue;
    try {
      fields[name] = typeof value === 'string' ? redactSecrets(text) : JSON.parse(redactSecrets(text));
    } catch {
      // A read-only field stays as it is; the ModelError's own message is redacted regardless.
    }
  }
}

const networkErrorCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The message of an error body shaped `{error: {message}}` (Anthropic's), if it is one. */
function nestedMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const inner = (body as { error?: unknown }).error;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const message = (inner as { message?: unknown }).message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/**
 * True for a connection that failed or broke after the headers: undici reports a reset mid-body
 * or mid-stream as `TypeError: terminated` with the socket error as its cause, outside the SDK's
 * own connection errors.
 */
export function isNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && networkErrorCodes.has(code)) return true;
    if (current instanceof TypeError && (message === 'terminated' || message === 'fetch failed')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function networkMessage(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages.join(': ');
}

/**
 * Settles with an AbortError as soon as `signal` fires, whatever the SDK does meanwhile; the
 * listener is removed when the promise settles.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  provider: string,
): Promise<T> {
  return signal ? raceSignal(promise, signal, `The ${provider} call was aborted.`) : promise;
}
