import {
  APICallError,
  EmptyResponseBodyError,
  InvalidArgumentError,
  InvalidPromptError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  LoadSettingError,
  TypeValidationError,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { ConfigError, ModelError, type SwarmError, toSwarmError } from '@swarm/core';

/**
 * Turns what an AI SDK model threw into a swarm error, so core's retry policy applies: an
 * `APICallError` is a `ModelError` with its status and the provider's own `isRetryable` (408, 409,
 * 429, 5xx and network failures), its response headers kept for Retry-After; a malformed response
 * is retryable; a missing key or setting, or a request the model cannot take, is a `ConfigError`.
 * Anything else goes through core's `toSwarmError` (network errors retryable, the rest not).
 */
export function classifyAiSdkError(error: unknown, provider: string): SwarmError {
  if (APICallError.isInstance(error)) {
    return new ModelError(`${provider}: ${error.message}`, {
      provider,
      status: error.statusCode,
      retryable: error.isRetryable,
      cause: withHeaders(error),
    });
  }
  if (LoadAPIKeyError.isInstance(error) || LoadSettingError.isInstance(error)) {
    return new ConfigError(`${provider}: ${error.message}`, { cause: error });
  }
  if (
    UnsupportedFunctionalityError.isInstance(error) ||
    InvalidPromptError.isInstance(error) ||
    InvalidArgumentError.isInstance(error)
  ) {
    return new ConfigError(`${provider} cannot take this request: ${error.message}`, { cause: error });
  }
  if (
    EmptyResponseBodyError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error)
  ) {
    return new ModelError(`${provider}: the response was malformed: ${error.message}`, {
      provider,
      retryable: true,
      cause: error,
    });
  }
  const streamError = providerStreamError(error);
  if (streamError) {
    return new ModelError(`${provider}: ${streamError.message}`, {
      provider,
      status: streamError.statusCode,
      retryable: streamError.isRetryable,
      cause: error,
    });
  }
  return toSwarmError(error, { provider });
}

// Core's retry reads the wait a provider asked for from `cause.headers` (a Headers); the AI SDK
// keeps response headers as a plain record. Added once, not enumerable, on the SDK's own error.
function withHeaders(error: APICallError): APICallError {
  const headers = error.responseHeaders;
  if (headers && !('headers' in error)) {
    Object.defineProperty(error, 'headers', { value: new Headers(headers), enumerable: false });
  }
  return error;
}

/**
 * The message, status and retry advice of an error part of a provider's stream (`{ type: 'error',
 * error }`) that is a plain object: the API's own error body, or the AI SDK's
 * `createProviderStreamError` shape when the provider says whether a retry helps (else it does not).
 */
function providerStreamError(
  error: unknown,
): { message: string; statusCode: number | undefined; isRetryable: boolean } | undefined {
  if (typeof error !== 'object' || error === null || error instanceof Error) return undefined;
  const { message, statusCode, isRetryable } = error as Record<string, unknown>;
  if (typeof message !== 'string') return undefined;
  return {
    message,
    statusCode: typeof statusCode === 'number' ? statusCode : undefined,
    isRetryable: isRetryable === true,
  };
}
