import type { ModelStreamEvent } from '../contracts/model.js';
import { AbortError, ModelError, type SwarmError } from '../kernel/errors.js';
import { abortableDelay, type LinkedSignal, linkSignal, raceSignal } from '../kernel/linked-signal.js';

/** The SDK's own default timeout of one HTTP attempt: 10 minutes. */
export const DEFAULT_TIMEOUT_MS = 600_000;
/** The longest Retry-After wait honoured by default: 1 minute. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/** Retries of a failed call by default, as the SDKs do. */
export const DEFAULT_MAX_RETRIES = 2;
/** The first backoff wait when the provider names none; it doubles per retry, up to 8 seconds. */
export const DEFAULT_INITIAL_RETRY_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** The retry and time options every provider shares. */
export interface ProviderCallOptions {
  /** Timeout of one HTTP attempt in milliseconds, body included (default 10 minutes). */
  timeoutMs?: number;
  /**
   * Retries on 408/409/429/5xx, network failures, timeouts and malformed responses, honouring
   * Retry-After (default 2). swarm runs the retries itself; the SDK's own are off.
   */
  maxRetries?: number;
  /**
   * The longest wait before a retry (default 60 s). A provider asking for more (Retry-After) fails
   * the call at once with a retryable `ModelError` whose `retryAfterMs` is the wait asked for.
   */
  maxRetryDelayMs?: number;
  /** The first backoff wait when the provider names none, doubling per retry up to 8 s (default 500 ms). */
  initialRetryDelayMs?: number;
  /**
   * A deadline for the whole call in milliseconds: every attempt, retry and wait (default: none,
   * so the call is bounded by `timeoutMs`, `maxRetries` and `maxRetryDelayMs`).
   */
  deadlineMs?: number;
}

/**
 * `ProviderCallOptions` with defaults applied, and the provider name for messages: what
 * `callWithRetries` runs by. Make it once per provider instance with `callPolicy`.
 */
export interface CallPolicy {
  provider: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  initialRetryDelayMs: number;
  deadlineMs: number | undefined;
}

/**
 * Applies the defaults to validated options (check them first with `validateProviderOptions`, which
 * throws a ConfigError naming the bad one).
 */
export function callPolicy(provider: string, options: ProviderCallOptions): CallPolicy {
  return {
    provider,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    initialRetryDelayMs: options.initialRetryDelayMs ?? DEFAULT_INITIAL_RETRY_DELAY_MS,
    deadlineMs: options.deadlineMs,
  };
}

/**
 * Turns what one attempt threw into a swarm error (provider-specific; see `toSwarmError`). A
 * `ModelError` with `retryable: true` is retried (its `cause`'s `headers`, when a `Headers`, may name
 * the wait in `retry-after-ms` / `Retry-After`); any other error ends the call.
 */
export type ClassifyError = (error: unknown) => SwarmError;

/**
 * One attempt of a call, on its own AbortSignal: linked to the caller's (and the call's deadline),
 * firing at the attempt timeout. Hand it to the SDK: its firing cuts the request.
 */
export type Attempt<T> = (signal: AbortSignal, attempt: number) => Promise<T>;

/**
 * The whole call's scope: undefined when there is no deadline (the attempts then link to the caller's
 * signal directly, so a call pays for one linked signal, not two), else a signal linked to the
 * caller's that fires at the deadline.
 */
type CallScope = LinkedSignal | undefined;

function callScope(callerSignal: AbortSignal | undefined, deadlineMs: number | undefined): CallScope {
  return deadlineMs === undefined ? undefined : linkSignal(callerSignal, deadlineMs);
}

// The attempt's own signal, linked to the call's (or the caller's) and firing at the attempt timeout.
function attemptSignal(
  policy: CallPolicy,
  call: CallScope,
  callerSignal: AbortSignal | undefined,
): LinkedSignal {
  return linkSignal(call === undefined ? callerSignal : call.signal, policy.timeoutMs);
}

/**
 * Runs a provider call with swarm's retry policy. Every attempt gets its own AbortSignal, linked to
 * the caller's and released when the attempt ends, so the caller's signal keeps no listener. It
 * fires at the attempt timeout (one timer per timeout length, see `linkSignal`) and cuts the request,
 * body included. Every wait is a timer cleared when the call ends, aborts or passes its deadline.
 * An attempt is over as soon as its signal fires, whether or not the client heeds the signal: the
 * call then rejects (or retries) at once, so a client that ignores its signal cannot hold it.
 *
 * This is the way to build a provider (a model, an embedder, another API) that fails like swarm's
 * own: take `ProviderCallOptions`, check them with `validateProviderOptions` and make a `callPolicy`
 * at construction, then run every request through `callWithRetries` with the client's own retries
 * off, handing each attempt's signal to the client. It rejects with `AbortError` when the caller
 * aborts, with a retryable `ModelError` when an attempt times out, the deadline passes or a wait
 * would exceed `maxRetryDelayMs` (with `retryAfterMs`), and with the last classified error when the
 * retries run out.
 *
 * ```ts
 * validateProviderOptions('acmeEmbedder', model, options);
 * const policy = callPolicy('acme', options);
 * const classify: ClassifyError = (error) => toSwarmError(error, { provider: 'acme' });
 * const vectors = await callWithRetries(policy, signal, classify, (attemptSignal) =>
 *   client.embed(texts, { signal: attemptSignal, maxRetries: 0 }),
 * );
 * ```
 *
 * `read`, when given, turns what an attempt resolved with into the call's value; what it throws
 * counts as that attempt's failure (a malformed response, as a retryable `ModelError`, is retried).
 * It is the same as reading in the attempt with `.then`, one promise cheaper per call.
 */
export function callWithRetries<T>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: Attempt<T>,
): Promise<T>;
export function callWithRetries<R, T>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: Attempt<R>,
  read: (response: R) => T,
): Promise<T>;
export function callWithRetries<R, T>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: Attempt<R>,
  read?: (response: R) => T,
): Promise<T> {
  return callWithRetriesFor(policy, callerSignal, classify, attempt, read, undefined);
}

/** An attempt of `callWithRetriesFor`, given the call's argument. */
type AttemptWith<A, R> = (signal: AbortSignal, attempt: number, arg: A) => Promise<R>;
/** The `read` of `callWithRetriesFor`, given the call's argument. */
type ReadWith<A, R, T> = ((response: R, arg: A) => T) | undefined;

/**
 * `callWithRetries` with an argument handed to `attempt` and `read` on every call, so that a
 * provider can make both functions once rather than as closures per call (a call in flight then
 * holds one small object, not two closures and their scope). Internal to the package.
 */
export function callWithRetriesFor<A, R, T>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: AttemptWith<A, R>,
  read: ReadWith<A, R, T>,
  arg: A,
): Promise<T> {
  // Not async: the first attempt, which almost every call ends with, runs without a suspended
  // frame; only a failed one goes on to the retry loop. One promise settles the call: the first
  // of the attempt's own settling and its signal firing.
  let call: CallScope;
  let first: LinkedSignal | undefined;
  let pending: Promise<R>;
  // The deadline counts from here; without one, no clock is read.
  const started = policy.deadlineMs === undefined ? 0 : Date.now();
  try {
    call = callScope(callerSignal, policy.deadlineMs);
    first = attemptSignal(policy, call, callerSignal);
    pending = attempt(first.signal, 0, arg);
  } catch (error) {
    first?.release();
    call?.release();
    return Promise.reject(error);
  }
  const scope = call;
  const current = first;
  const signal = current.signal;
  // The handlers below share this frame's one context (no second one for the executor's).
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const settledCall = new Promise<T>((resolveCall, rejectCall) => {
    resolve = resolveCall;
    reject = rejectCall;
  });
  let settled = false;
  // Called with the attempt's error, or as the signal's abort listener (with its event).
  const fail = (error: unknown) => {
    if (settled) return;
    settled = true;
    signal.removeEventListener('abort', fail);
    let failure: SwarmError;
    try {
      failure = classifyFailure(
        isEventOf(error, signal) ? signal.reason : error,
        policy,
        callerSignal,
        scope,
        current,
        classify,
      );
    } catch (thrown) {
      scope?.release();
      reject(thrown);
      return;
    } finally {
      current.release();
    }
    retry(policy, callerSignal, classify, attempt, read, arg, scope, started, failure).then(resolve, reject);
  };
  pending.then((response) => {
    if (settled) return;
    let value: T;
    if (read === undefined) value = response as unknown as T;
    else {
      try {
        value = read(response, arg);
      } catch (error) {
        fail(error);
        return;
      }
    }
    settled = true;
    signal.removeEventListener('abort', fail);
    current.release();
    scope?.release();
    resolve(value);
  }, fail);
  if (signal.aborted) fail(signal.reason);
  else signal.addEventListener('abort', fail, once);
  return settledCall;
}

const once = { once: true } as const;

// Whether a listener was called with `signal`'s abort event rather than with an error.
function isEventOf(value: unknown, signal: AbortSignal): boolean {
  return typeof value === 'object' && value !== null && (value as { target?: unknown }).target === signal;
}

// The attempts after a failed first one, each after its wait; releases the call's scope at the end.
async function retry<A, R, T>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: AttemptWith<A, R>,
  read: ReadWith<A, R, T>,
  arg: A,
  call: CallScope,
  started: number,
  firstFailure: SwarmError,
): Promise<T> {
  let failure = firstFailure;
  try {
    for (let index = 1; ; index++) {
      await waitBeforeRetry(failure, index - 1, policy, started, callerSignal, call);
      const current = attemptSignal(policy, call, callerSignal);
      try {
        // Over when its signal fires, whatever the attempt does.
        const response = await raceSignal(attempt(current.signal, index, arg), current.signal);
        return read === undefined ? (response as unknown as T) : read(response, arg);
      } catch (error) {
        failure = classifyFailure(error, policy, callerSignal, call, current, classify);
      } finally {
        current.release();
      }
    }
  } finally {
    call?.release();
  }
}

/** The `restart` event of a model stream, for `streamWithRetries`. */
export function restartEvent(): ModelStreamEvent {
  return { type: 'restart' };
}

/**
 * The streaming twin of `callWithRetries`: an attempt that fails before it yields anything is
 * retried. One that fails after yielding is retried too when `restart` is given: its event is
 * yielded first, telling the consumer to drop what the cut attempt streamed (the whole answer
 * streams again); without `restart` it rethrows (a retry would repeat what the consumer has).
 * Each attempt runs on its own signal, as with `callWithRetries`; hand it to the client, and race
 * the stream's creation with it (`raceAbort`) if the client may not heed it.
 *
 * ```ts
 * async *stream(request) {
 *   yield* streamWithRetries(policy, request.signal, classify, async function* (signal) {
 *     const events = await raceAbort(client.stream(body, { signal }), signal, 'acme');
 *     for await (const event of events) yield toStreamEvent(event);
 *   });
 * }
 * ```
 */
export async function* streamWithRetries<E>(
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  classify: ClassifyError,
  attempt: (signal: AbortSignal, attempt: number) => AsyncIterable<E>,
  restart?: () => E,
): AsyncGenerator<E> {
  const call = callScope(callerSignal, policy.deadlineMs);
  const started = Date.now();
  try {
    for (let index = 0; ; index++) {
      const current = attemptSignal(policy, call, callerSignal);
      let yielded = 0;
      let failure: SwarmError;
      try {
        for await (const event of attempt(current.signal, index)) {
          yielded++;
          yield event;
        }
        return;
      } catch (error) {
        failure = classifyFailure(error, policy, callerSignal, call, current, classify);
      } finally {
        current.release();
      }
      if (yielded > 0 && restart === undefined) throw failure;
      await waitBeforeRetry(failure, index, policy, started, callerSignal, call);
      if (yielded > 0) yield restart!();
    }
  } finally {
    call?.release();
  }
}

// The caller's abort wins, then the call's deadline, then the attempt's timeout, then the provider's error.
function classifyFailure(
  error: unknown,
  policy: CallPolicy,
  callerSignal: AbortSignal | undefined,
  call: CallScope,
  current: LinkedSignal,
  classify: ClassifyError,
): SwarmError {
  const { provider } = policy;
  if (callerSignal?.aborted) {
    return new AbortError(`The ${provider} call was aborted.`, { cause: callerSignal.reason });
  }
  if (call?.cause === 'timeout') return deadlineError(policy, error);
  if (current.cause === 'timeout') return attemptTimeoutError(policy, error);
  return classify(error);
}

function attemptTimeoutError(policy: CallPolicy, cause?: unknown): ModelError {
  const { provider } = policy;
  return new ModelError(`${provider}: the request timed out after ${policy.timeoutMs} ms.`, {
    provider,
    retryable: true,
    ...(cause !== undefined && { cause }),
  });
}

function deadlineError(policy: CallPolicy, cause: unknown): ModelError {
  return new ModelError(
    `${policy.provider}: the call passed its deadline of ${policy.deadlineMs} ms (retries and waits included).`,
    { provider: policy.provider, retryable: true, cause },
  );
}

// Returns when another attempt should start; throws the failure (or why no retry is allowed) otherwise.
async function waitBeforeRetry(
  failure: SwarmError,
  index: number,
  policy: CallPolicy,
  started: number,
  callerSignal: AbortSignal | undefined,
  call: CallScope,
): Promise<void> {
  if (!(failure instanceof ModelError) || !failure.retryable || index >= policy.maxRetries) throw failure;
  if ((call === undefined ? callerSignal : call.signal)?.aborted) throw failure;
  const asked = retryAfterMs(failure.cause);
  const delay = asked ?? backoffMs(index, policy.initialRetryDelayMs);
  if (delay > policy.maxRetryDelayMs) {
    throw new ModelError(
      `${policy.provider}: the provider asked to wait ${Math.round(delay)} ms before a retry, more than maxRetryDelayMs (${policy.maxRetryDelayMs} ms). ${failure.message}`,
      {
        provider: policy.provider,
        status: failure.status,
        retryable: true,
        retryAfterMs: delay,
        cause: failure,
      },
    );
  }
  if (policy.deadlineMs !== undefined && Date.now() - started + delay >= policy.deadlineMs) {
    throw deadlineError(policy, failure);
  }
  try {
    await abortableDelay(delay, call === undefined ? callerSignal : call.signal);
  } catch (error) {
    if (callerSignal?.aborted) {
      throw new AbortError(`The ${policy.provider} call was aborted.`, { cause: callerSignal.reason });
    }
    throw call?.cause === 'timeout' ? deadlineError(policy, failure) : error;
  }
}

/** Exponential backoff with up to 25% jitter, as the SDKs compute it. */
function backoffMs(index: number, initialMs: number): number {
  const base = Math.min(initialMs * 2 ** index, Math.max(MAX_BACKOFF_MS, initialMs));
  return base * (1 - Math.random() * 0.25);
}

/** The wait a response asked for in `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
export function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown } | undefined)?.headers;
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
