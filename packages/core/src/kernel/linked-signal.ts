import { AbortError } from './errors.js';
import { optionalNodeBuiltin } from './node-builtin.js';

type AsyncResource = import('node:async_hooks').AsyncResource;

// Node's AsyncResource, which carries an async context across the shared timer (see Link), or
// undefined in a runtime with no async_hooks (a browser), whose timers carry no context to keep.
const AsyncContext =
  optionalNodeBuiltin<typeof import('node:async_hooks')>('node:async_hooks')?.AsyncResource;

/** Why a linked signal fired: its parent aborted, or its own time ran out. */
export type LinkedSignalCause = 'parent' | 'timeout';

/**
 * A child AbortSignal that follows a parent signal and can time out on its own. It exists so that
 * code which adds listeners to a signal and keeps them (an SDK, a tool) adds them to a short-lived
 * child instead of the caller's long-lived signal. `release()` detaches the child from the parent
 * and from its timer: call it in a `finally` when the work ends.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** What fired the signal, or undefined while it has not fired. */
  readonly cause: LinkedSignalCause | undefined;
  /** Detaches from the parent and from the timer; idempotent. */
  release(): void;
}

/**
 * Links a new AbortSignal to `parent` (if any), firing after `timeoutMs` (if given) as well. The
 * parent holds exactly one listener until `release()`. The timeout shares one timer with every
 * link of the same length (see TimeoutQueue), runs in the async context the link was made in, and
 * holds nothing once released.
 */
export function linkSignal(parent: AbortSignal | undefined, timeoutMs?: number): LinkedSignal {
  return new Link(parent, timeoutMs);
}

const once = { once: true } as const;

// One link: its own AbortController, and itself the parent's listener (an EventListener object, no
// closure per link). Its time is kept by the shared queue of its timeout length (see
// TimeoutQueue), not by a timer of its own: a Node timer per attempt was what a thousand calls in
// flight cost the garbage collector most.
class Link implements LinkedSignal {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal | undefined;
  cause: LinkedSignalCause | undefined;
  // Its place in the queue of its timeout length, while it waits there.
  queue: TimeoutQueue | undefined;
  deadline = 0;
  previous: Link | undefined;
  next: Link | undefined;
  // The async context it was made in, where its time-out runs (the queue's timer may have been set
  // in another's): what the time-out starts (a retry) carries the call's context, as a timer would.
  // Undefined where the runtime has no async context (no async_hooks).
  context: AsyncResource | undefined;

  constructor(parent: AbortSignal | undefined, timeoutMs: number | undefined) {
    this.#parent = parent;
    if (parent?.aborted) {
      this.cause = 'parent';
      this.#controller.abort(parent.reason);
      return;
    }
    parent?.addEventListener('abort', this, once);
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      if (AsyncContext !== undefined) this.context = new AsyncContext('swarm.timeout');
      TimeoutQueue.of(timeoutMs).add(this);
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  release(): void {
    this.#parent?.removeEventListener('abort', this);
    this.queue?.remove(this);
  }

  /** The parent fired (the EventListener interface). */
  handleEvent(): void {
    this.cause ??= 'parent';
    this.release();
    this.#controller.abort(this.#parent?.reason);
  }

  /** Its time (`timeoutMs`) ran out: its queue's timer fired. */
  timedOut(timeoutMs: number): void {
    this.cause ??= 'timeout';
    this.release();
    this.#controller.abort(new Error(`Timed out after ${timeoutMs} ms.`));
  }
}

/**
 * The links waiting out one timeout length, in the order they started, which is the order they
 * expire in: one timer serves them all, set for the first. Each link costs a few fields rather
 * than a timer of its own (a Node timer per attempt was the largest part of what a thousand calls
 * in flight cost the garbage collector). When the queue empties the timer is unref'd, not cleared
 * (one call after another would otherwise set and clear one each): it then keeps no process
 * alive, holds no call, and does nothing if it fires. When it fires it trusts itself over the
 * clock: the links due by the time it was set for expire, even under fake timers that leave the
 * clock be.
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
  #first: Link | undefined;
  #last: Link | undefined;
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

  add(link: Link): void {
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

  remove(link: Link): void {
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
