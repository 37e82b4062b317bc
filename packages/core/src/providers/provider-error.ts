import { AbortError, ModelError, SwarmError } from '../errors.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one Stainless-generated SDK (`openai`, `@anthropic-ai/sdk`), for `toSwarmError`. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

const retryableErrorTypes = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** HTTP statuses worth another attempt: request timeout, lock conflict, rate limit and server errors. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
}

/** Turns anything an SDK call threw into an `AbortError` (the caller cancelled) or a `ModelError`. */
export function toSwarmError(
  error: unknown,
  details: { provider: string; signal?: AbortSignal | undefined; sdk: SdkErrorClasses },
): SwarmError {
  const { provider, signal, sdk } = details;
  if (SwarmError.isInstance(error)) return error;
  if (signal?.aborted || error instanceof sdk.APIUserAbortError) {
    return new AbortError(`The ${provider} call was aborted.`, { cause: signal?.reason ?? error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ModelError(`${provider}: the request timed out.`, { provider, retryable: true, cause: error });
  }
  if (error instanceof sdk.APIConnectionError) {
    return new ModelError(`${provider}: connection failed: ${message}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof sdk.APIError) {
    const { status, type } = error as Error & { status?: unknown; type?: unknown };
    const httpStatus = typeof status === 'number' ? status : undefined;
    // An error event inside a 200 stream has no status; its type tells whether a retry may help.
    const retryable =
      httpStatus === undefined
        ? typeof type === 'string' && retryableErrorTypes.has(type)
        : isRetryableStatus(httpStatus);
    return new ModelError(`${provider}: ${message}`, {
      provider,
      status: httpStatus,
      retryable,
      cause: error,
    });
  }
  return new ModelError(`${provider}: ${message}`, { provider, retryable: false, cause: error });
}

/**
 * Settles with an AbortError as soon as `signal` fires, even while the SDK sleeps before a retry
 * (the openai SDK's Retry-After wait does not watch the signal).
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  provider: string,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new AbortError(`The ${provider} call was aborted.`, { cause: signal.reason }));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
