import { AbortError } from './errors.js';
import { optionalNodeBuiltin } from './node-builtin.js';

type AsyncResource = import('node:async_hooks').AsyncResource;

// Node's AsyncResource, which carries an async context across the shared timer (see LightLink), or
// undefined in a runtime with no async_hooks (a browser), whose timers carry no context to keep.
const AsyncContext =
  optionalNodeBuiltin<typeof import('node:async_hooks')>('node:async_hooks')?.AsyncResource;

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
 * `linkSignal` without an AbortSignal: a plain object with what both provider SDKs (the pinned
 * `openai` and `@anthropic-ai/sdk` clients) use of a request's `signal`: `aborted`, `reason`,
 * `throwIfAborted()`, and `addEventListener`/`removeEventListener` of `'abort'` (the SDK's listener
 * aborts its own per-request controller, which cuts the request and its body). It fires when
 * `parent` aborts (one listener on it until `release()`) or after `timeoutMs`. In Node 20 a real
 * AbortSignal costs about 3 µs to make and 1 to 2 µs per listener, on every call; this costs a
 * fraction of that. Hand it only to code known to use nothing else of a signal: `fetch` would
 * reject it, so a client that is not the pinned SDK gets a real linked signal instead. Its timeout
 * shares one timer with every light link of the same length (see TimeoutQueue), and runs in the
 * async context the link was made in.
 */
export function lightLinkSignal(parent: AbortSignal | undefined, timeoutMs: number): LinkedSignal {
  return new LightLink(parent, timeoutMs);
}

const once = { once: true } as const;

type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

// One light link, which is also the signal it hands out: no second object, no closure per link.
// It is itself the parent's listener (an EventListener object), and its time is kept by the
// shared queue of its timeout length (see TimeoutQueue), not by a timer of its own. The first two
// listeners (the SDK's and the call's race, on every call) sit in fields; only more go to an array.
class LightLink implements LinkedSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  cause: LinkedSignalCause | undefined;
  readonly #parent: AbortSignal | undefined;
  // Its place in the queue of its timeout length, while it waits there.
  queue: TimeoutQueue | undefined;
  deadline = 0;
  previous: LightLink | undefined;
  next: LightLink | undefined;
  // The async context it was made in, where its time-out runs (the queue's timer may have been set
  // in another's): what the time-out starts (a retry) carries the call's context, as a timer would.
  // Undefined where the runtime has no async context (no async_hooks).
  context: AsyncResource | undefined;
  #first: AbortListener | undefined;
  #second: AbortListener | undefined;
  #more: AbortListener[] | undefined;

  constructor(parent: AbortSignal | undefined, timeoutMs: number) {
    this.#parent = parent;
    if (parent?.aborted) {
      this.cause = 'parent';
      this.#fire(parent.reason);
      return;
    }
    parent?.addEventListener('abort', this, once);
    if (Number.isFinite(timeoutMs)) {
      if (AsyncContext !== undefined) this.context = new AsyncContext('swarm.attempt');
      TimeoutQueue.of(timeoutMs).add(this);
    }
  }

  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  release(): void {
    this.#parent?.removeEventListener('abort', this);
    this.queue?.remove(this);
  }

  /** The parent fired (the EventListener interface). */
  handleEvent(): void {
    this.cause ??= 'parent';
    this.release();
    this.#fire(this.#parent?.reason);
  }

  /** Its time (`timeoutMs`) ran out: its queue's timer fired. */
  timedOut(timeoutMs: number): void {
    this.cause ??= 'timeout';
    this.release();
    this.#fire(new Error(`Timed out after ${timeoutMs} ms.`));
  }

  addEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || listener === null || this.aborted || this.#has(listener)) return;
    // Kept in the order added: a slot is taken only when nothing comes after it.
    const more = this.#more !== undefined && this.#more.length > 0;
    if (this.#first === undefined && this.#second === undefined && !more) this.#first = listener;
    else if (this.#second === undefined && !more) this.#second = listener;
    else if (this.#more === undefined) this.#more = [listener];
    else this.#more.push(listener);
  }

  removeEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || listener === null) return;
    if (this.#first === listener) this.#first = undefined;
    else if (this.#second === listener) this.#second = undefined;
    else if (this.#more !== undefined) {
      const at = this.#more.indexOf(listener);
      if (at !== -1) this.#more.splice(at, 1);
    }
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  #has(listener: AbortListener): boolean {
    return this.#first === listener || this.#second === listener || (this.#more?.includes(listener) ?? false);
  }

  // Aborts once: sets `aborted` and `reason`, then calls each listener (in the order added, and
  // `onabort` last) once.
  #fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners: AbortListener[] = [];
    if (this.#first !== undefined) listeners.push(this.#first);
    if (this.#second !== undefined) listeners.push(this.#second);
    if (this.#more !== undefined) listeners.push(...this.#more);
    this.#first = this.#second = this.#more = undefined;
    const event = { type: 'abort', target: this } as unknown as Event;
    for (const listener of listeners) {
      if (typeof listener === 'function') listener.call(this, event);
      else listener.handleEvent(event);
    }
    this.onabort?.call(this as unknown as AbortSignal, event);
  }
}

/**
 * The light links waiting out one timeout length, in the order they started, which is the order
 * they expire in: one timer serves them all, set for the first. Each link costs a few fields
 * rather than a timer of its own (a Node timer per attempt was the largest part of what a
 * thousand calls in flight cost the garbage collector). When the queue empties the timer is
 * unref'd, not cleared (one call after another would otherwise set and clear one each): it then
 * keeps no process alive, holds no call, and does nothing if it fires. When it fires it trusts
 * itself over the clock: the links due by the time it was set for expire, even under fake timers
 * that leave the clock be.
 */
class TimeoutQueue {
  static #queues = new Map<number, TimeoutQueue>();

  /** The queue of links of `ms` milliseconds. */
  static of(ms: number): TimeoutQueue {
    let queue = TimeoutQueue.#queues.get(ms);
    if (queue === undefined) {
      queue = new TimeoutQueue(ms);
      TimeoutQueue.#queues.set(ms, queue);
    }
    return queue;
  }

  readonly #ms: number;
  #first: LightLink | undefined;
  #last: LightLink | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // The functions that set the timer and clear it (fake timers may come and go between calls).
  #setBy: typeof setTimeout | undefined;
  #clearBy: typeof clearTimeout | undefined;
  // The deadline the timer is set for; whether it is idle (no link waits: unref'd, kept for the
  // next link, so that one call after another does not set and clear a timer each); whether
  // expired links are being fired now.
  #timerFor = 0;
  #idle = false;
  #expiring = false;

  private constructor(ms: number) {
    this.#ms = ms;
  }

  add(link: LightLink): void {
    link.queue = this;
    // Whole milliseconds: a small integer is kept in the link itself, a fraction in an object of its own.
    link.deadline = Math.ceil(performance.now()) + this.#ms;
    link.previous = this.#last;
    link.next = undefined;
    if (this.#last === undefined) this.#first = link;
    else this.#last.next = link;
    this.#last = link;
    if (this.#expiring) return;
    // A timer set before fake timers were installed (or after they were removed) would never fire
    // when the test advances its clock: it is replaced.
    if (this.#timer !== undefined && this.#setBy !== setTimeout) this.#disarm();
    if (this.#timer === undefined) this.#arm(link.deadline, this.#ms);
    else if (this.#idle) {
      setRef(this.#timer, true);
      this.#idle = false;
    }
  }

  remove(link: LightLink): void {
    if (link.queue !== this) return;
    if (link.previous === undefined) this.#first = link.next;
    else link.previous.next = link.next;
    if (link.next === undefined) this.#last = link.previous;
    else link.next.previous = link.previous;
    link.queue = link.previous = link.next = undefined;
    if (this.#first !== undefined || this.#timer === undefined || this.#idle) return;
    if (TimeoutQueue.#queues.size > 16) {
      // A length no longer in use is forgotten once many are kept (a timeout computed per call).
      this.#disarm();
      TimeoutQueue.#queues.delete(this.#ms);
    } else {
      // Nothing waits: the timer no longer keeps the process alive, and does nothing if it fires.
      setRef(this.#timer, false);
      this.#idle = true;
    }
  }

  #arm(deadline: number, delay: number): void {
    this.#timerFor = deadline;
    this.#idle = false;
    this.#setBy = setTimeout;
    this.#clearBy = clearTimeout;
    this.#timer = setTimeout(expireQueue, Math.max(0, delay), this);
  }

  #disarm(): void {
    this.#clearBy!(this.#timer);
    this.#timer = undefined;
    this.#idle = false;
  }

  /** The timer fired: every link due by then times out, in order; the timer is set for the next. */
  expire(): void {
    this.#timer = undefined;
    this.#idle = false;
    if (this.#first === undefined) return;
    const firedAt = Math.max(performance.now(), this.#timerFor);
    this.#expiring = true;
    try {
      for (let link = this.#first; link !== undefined && link.deadline <= firedAt; link = this.#first) {
        this.remove(link);
        if (link.context === undefined) link.timedOut(this.#ms);
        else link.context.runInAsyncScope(link.timedOut, link, this.#ms);
      }
    } finally {
      this.#expiring = false;
      const next = this.#first;
      if (next !== undefined && this.#timer === undefined) this.#arm(next.deadline, next.deadline - firedAt);
    }
  }
}

function expireQueue(queue: TimeoutQueue): void {
  queue.expire();
}

// Whether a timer keeps the process alive. Node's timers are objects that do until unref'd; a
// browser's (and an edge runtime's) are numbers and keep nothing alive.
function setRef(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void {
  if (typeof timer !== 'object') return;
  if (keepAlive) timer.ref();
  else timer.unref();
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
    // The listener is an object, not a closure: this runs on every provider call (see raceAbort),
    // and tsx, which runs the benches, wraps each named closure it creates in a name-keeping call.
    const race = new SignalRace(signal, message, reject);
    if (signal.aborted) {
      race.handleEvent();
      work.catch(() => undefined);
      return;
    }
    signal.addEventListener('abort', race, once);
    // Settled by hand rather than with .finally(): one promise fewer on every call.
    work.then(
      (value) => {
        signal.removeEventListener('abort', race);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', race);
        reject(error);
      },
    );
  });
}

class SignalRace {
  constructor(
    readonly signal: AbortSignal,
    readonly message: string | undefined,
    readonly reject: (error: unknown) => void,
  ) {}

  handleEvent(): void {
    this.reject(new AbortError(this.message, { cause: this.signal.reason }));
  }
}
