import { AbortError } from './errors.js';

/** Why a linked signal fired: its parent aborted, or its own time ran out. */
export type LinkedSignalCause = 'parent' | 'timeout';

/**
 * A child AbortSignal that follows a parent signal and can time out on its own. It exists so that
 * code which adds listeners to a signal and never removes them (both provider SDKs do) adds them
 * to a short-lived child instead of the caller's long-lived signal. `release()` detaches the child
 * from the parent and clears its timer: call it in a `finally` when the work ends.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** What fired the signal, or undefined while it has not fired. */
  readonly cause: LinkedSignalCause | undefined;
  /** Detaches from the parent and clears the timer; idempotent. */
  release(): void;
}

/**
 * Links a new signal to `parent` (if any), firing after `timeoutMs` (if given) as well. The parent
 * holds exactly one listener until `release()`, and no timer outlives `release()`.
 */
export function linkSignal(parent: AbortSignal | undefined, timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  let cause: LinkedSignalCause | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = () => {
    cause ??= 'parent';
    controller.abort(parent?.reason);
    release();
  };
  function release() {
    parent?.removeEventListener('abort', onParentAbort);
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }
  if (parent?.aborted) {
    cause = 'parent';
    controller.abort(parent.reason);
  } else {
    parent?.addEventListener('abort', onParentAbort, { once: true });
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        cause ??= 'timeout';
        controller.abort(new Error(`Timed out after ${timeoutMs} ms.`));
        release();
      }, timeoutMs);
    }
  }
  return {
    signal: controller.signal,
    get cause() {
      return cause;
    },
    release,
  };
}

/**
 * Waits `ms`, rejecting with an AbortError as soon as `signal` fires. The timer and the listener
 * are both gone when the promise settles, so an aborted wait keeps nothing alive.
 */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError(undefined, { cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError(undefined, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like `work`, or rejects with an AbortError as soon as `signal` fires, whatever `work`
 * does: for code (a tool, an SDK) that may ignore its signal. The listener is removed either way.
 */
export function raceSignal<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  message?: string,
): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(message, { cause: signal.reason }));
    if (signal.aborted) {
      onAbort();
      work.catch(() => undefined);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
