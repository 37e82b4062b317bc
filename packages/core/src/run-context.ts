import { type Approvals, validateApprovals } from './approval.js';
import { validateContentParts } from './content-parts.js';
import {
  AbortError,
  BudgetExceededError,
  ConfigError,
  errorMessage,
  isPause,
  ModelError,
  SwarmError,
  throwIfAborted,
} from './errors.js';
import type { EventInput, SwarmEvent } from './events.js';
import type { GuardrailOptions } from './guardrail.js';
import { type Journal, validateJournal, validateRunId } from './journal.js';
import type { Limiter } from './limiter.js';
import { newRunId } from './run-id.js';
import { RunJournal } from './run-journal.js';
import type { ContentPart, Model, ModelRequest, ModelResponse, Usage } from './types.js';
import { addUsage, emptyUsage } from './usage.js';

/** A whole-run budget over all agents together. */
export interface Budget {
  maxCalls?: number;
  maxTokens?: number;
}

/** Options every `run` accepts (guardrails given here hold for this run, beside the runnable's own). */
export interface RunOptions extends GuardrailOptions {
  /** Cancels every pending call of the run. */
  signal?: AbortSignal;
  /** Live trace: called with every event, in order. */
  onEvent?: (event: SwarmEvent) => void;
  /** Whole-run budget, all agents together. */
  budget?: Budget;
  /** Shared concurrency / rate limit. */
  limiter?: Limiter;
  /** Stream model text as `model.delta` events where the provider streams (on in `stream()`). */
  textDeltas?: boolean;
  /**
   * The run this one is nested in. A nested run joins its parent: the parent's signal, limiter and
   * budget hold for it, its calls and usage count in the parent's totals as they happen, and its
   * events reach the parent's listener stamped with `parentRunId` and `path`.
   */
  parent?: RunContext;
  /**
   * The tool call of the parent run that this nested run answers (`asTool` sets it): stamped on
   * the nested run's events as `parentToolCallId`, so a trace viewer can hang the run under it.
   */
  parentToolCallId?: string;
  /**
   * Where the run keeps every model call's and tool execution's answer as it goes (write-ahead), so
   * that running it again with the same `runId` answers the finished calls from here, at any depth
   * of nesting, and goes on live from the first call the journal does not hold. Give it to the
   * outermost run only: nested runs share it.
   */
  journal?: Journal;
  /**
   * The run's id: its key in the journal (a run given the id of a journaled run resumes it) and the
   * `runId` of its events. Generated when absent. 1 to 128 letters, digits, `.`, `_` or `-`.
   */
  runId?: string;
  /**
   * Decisions on the calls a paused run waits for (`RunPausedError.pending`), by id: resumes it.
   * Needs the run's `journal` and `runId`; an id the journal does not hold as waiting is a ConfigError.
   */
  approvals?: Approvals;
  /**
   * Images and files that go with the task: every agent of the run given text (the task, or text
   * made from it) gets them after that text in its first turn; nested runs inherit them.
   */
  attachments?: ContentPart[];
}

/** What a run context is built from: the run options, and the name the run goes by in traces. */
export interface RunContextOptions extends RunOptions {
  /** The topology type of this run (`'ForestSwarm'`), stamped on its events and used in `path`. */
  topology?: string;
  /** The run's name in a nested trace's `path` when it has no topology (an agent's name). */
  name?: string;
}

// The Agent's hot path into a run, without the promise `callModel` wraps the model's in. They
// reach the run's private state, so RunContext's static block sets them. Internal to the package
// (not exported from its index).

/**
 * `context.callModel(model, request)` for a run nobody listens to (no events to emit) and no
 * limiter holds: it checks and counts the call as `callModel` does and returns the model's own
 * promise, whose answer must go through `directCallDone` (the usage counted) and whose error
 * through `directCallError` (the error `callModel` would reject with). Otherwise it returns
 * undefined: call `callModel`.
 */
export let startDirectCall: (
  context: RunContext,
  model: Model,
  request: ModelRequest,
) => Promise<ModelResponse> | undefined;
/** Counts the answer of a `startDirectCall` in the run's totals, and returns it. */
export let directCallDone: (context: RunContext, response: ModelResponse) => ModelResponse;
/** The error `callModel` would have rejected with, for what a `startDirectCall` rejected with. */
export let directCallError: (
  context: RunContext,
  model: Model,
  request: ModelRequest,
  error: unknown,
) => Error;

/** The run's journal, when it has one (its own, or its outermost run's). Internal to the package. */
export let journalOf: (context: RunContext) => RunJournal | undefined;
/**
 * The run's place in the run tree as the journal keys it: each run's name from the outermost in,
 * with the tool call that started a nested run. Internal to the package.
 */
export let pathKeyOf: (context: RunContext) => string;
/** The outermost run of `context`'s tree. Internal to the package. */
export let rootOf: (context: RunContext) => RunContext;

/** Calls, replayed calls and usage counted for one part of a run (see `withTally`). */
export interface RunTally {
  llmCalls: number;
  replayedCalls: number;
  usage: Usage;
}

/**
 * The same run, with a tally of its own: every call made through the returned context, and by every
 * run nested in it, is counted in the tally as well as in the run's totals. An Agent running in a
 * topology's shared context gives its tools one, so its result counts the runs its tools started
 * and not its siblings' calls. Internal to the package.
 */
export let withTally: (context: RunContext) => { context: RunContext; tally: RunTally };

/**
 * Holds the run's model calls on `until` (its input guardrails): the first call starts beside
 * them, every later call of the run and of the runs nested in it waits until they settle. Internal.
 */
export let gateCalls: (context: RunContext, until: Promise<unknown>) => void;

/**
 * The same run, for the guardrails' own runs (an Agent used as a guardrail): its calls do not wait
 * on the guardrails they are part of. Internal to the package.
 */
export let ungated: (context: RunContext) => RunContext;

/** When input guardrails hold the run's calls: a promise that settles when they have run. Internal. */
export let pendingGateOf: (context: RunContext) => Promise<void> | undefined;

interface CallGate {
  readonly settled: Promise<void>;
  firstTaken: boolean;
  done: boolean;
}

/**
 * The state of one run: its id, events, budget, limiter and totals. Topologies create one per run
 * and hand it to every agent call, so that budget and usage cover all agents together. Given a
 * `parent`, the run is nested: calls, usage, budget and events are shared with every ancestor.
 */
export class RunContext {
  /** The run's id, unique across processes (made at its first read: most runs nobody asks). */
  get runId(): string {
    this.#runId ??= newRunId();
    return this.#runId;
  }
  #runId: string | undefined;
  readonly topology: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly limiter: Limiter | undefined;
  readonly budget: Budget;
  readonly textDeltas: boolean;
  /** The run's attachments (`RunOptions.attachments`), its own or its parent's. */
  readonly attachments: readonly ContentPart[] | undefined;
  /** The run this one is nested in, if any. */
  readonly parent: RunContext | undefined;
  /** Names of the runs from the outermost to this one (topology types, or agent names). */
  get path(): readonly string[] {
    // Made at the first read (a nested run's events, or a run nested in this one): most runs never need it.
    this.#path ??= Object.freeze([...(this.parent?.path ?? []), this.#name]);
    return this.#path;
  }
  readonly #name: string;
  #path: readonly string[] | undefined;
  #pathKey: string | undefined;
  #journal: RunJournal | undefined;
  /** The parent's tool call this nested run answers, if a tool started it. */
  readonly parentToolCallId: string | undefined;
  readonly #onEvent: ((event: SwarmEvent) => void) | undefined;
  // The run whose totals this one counts into: itself, or for a view (`withSignal`) the run it views.
  #root: RunContext = this;
  // Tallies of parts of the run that calls through this context also count in (see withTally).
  #tallies: readonly RunTally[] = noTallies;
  // Input guardrails the run's calls wait on (see gateCalls); a guardrail's own run is ungated.
  #gate: CallGate | undefined;
  #ungated = false;
  #llmCalls = 0;
  #replayedCalls = 0;
  #callSequence = 0;
  // Made at the first response (or read): a run waiting for its first answer holds no usage object.
  #usage: Usage | undefined;

  /** Tokens used by every call of the run so far, nested runs included. */
  get usage(): Usage {
    const root = this.#root;
    root.#usage ??= emptyUsage();
    return root.#usage;
  }

  /** Model calls started so far, failed ones and nested runs' included. */
  get llmCalls(): number {
    return this.#root.#llmCalls;
  }

  set llmCalls(value: number) {
    this.#root.#llmCalls = value;
  }

  /** Model calls of the run answered from its journal (`llmCalls` counts them too), nested runs' included. */
  get replayedCalls(): number {
    return this.#root.#replayedCalls;
  }

  constructor(options: RunContextOptions = {}) {
    const { parent } = options;
    if (options.runId !== undefined) validateRunId(options.runId);
    this.#runId = options.runId;
    this.#journal = parent ? journalOf(parent) : undefined;
    if (parent && (options.journal !== undefined || options.approvals !== undefined)) {
      throw new ConfigError(
        'A nested run (given a parent) uses the journal of its outermost run: give journal and approvals to that run.',
      );
    }
    if (!parent && options.journal !== undefined) {
      const store = validateJournal(options.journal);
      if (options.approvals !== undefined && options.runId === undefined) {
        throw new ConfigError('approvals resume a paused run: give its runId too.');
      }
      const approvals = options.approvals === undefined ? undefined : validateApprovals(options.approvals);
      this.#journal = new RunJournal(store, this.runId, approvals);
    } else if (!parent && options.approvals !== undefined) {
      throw new ConfigError(
        'approvals resume a paused run from its journal: give the journal and runId the run paused with.',
      );
    }
    this.topology = options.topology;
    this.parent = parent;
    this.#name = options.topology ?? options.name ?? 'run';
    this.parentToolCallId = parent ? options.parentToolCallId : undefined;
    this.signal = joinSignals(parent?.signal, options.signal);
    this.limiter = options.limiter ?? parent?.limiter;
    this.budget = validateBudget(options.budget);
    this.textDeltas = options.textDeltas ?? parent?.textDeltas ?? false;
    this.attachments =
      options.attachments === undefined
        ? parent?.attachments
        : validateContentParts(options.attachments, 'attachments');
    this.#onEvent = options.onEvent;
  }

  /**
   * The same run with one more cancel signal: it fires when `signal` or the run's own signal does.
   * Everything else is this run's (id, path, events, budget, limiter, totals), so work given the
   * returned context is part of the run, not a nested run. For a time limit on part of a run.
   */
  withSignal(signal: AbortSignal | undefined): RunContext {
    if (!signal || signal === this.signal) return this;
    return this.#view(joinSignals(this.signal, signal));
  }

  // This run seen through another object (same id, path, events, budget, limiter, journal and
  // totals), with `signal` as its signal.
  #view(signal: AbortSignal | undefined): RunContext {
    const view = new RunContext({
      parent: this.parent,
      ...(this.parentToolCallId !== undefined && { parentToolCallId: this.parentToolCallId }),
      runId: this.runId,
      topology: this.topology,
      name: this.#name,
      signal,
      limiter: this.limiter,
      budget: this.budget,
      textDeltas: this.textDeltas,
      ...(this.attachments !== undefined && { attachments: this.attachments as ContentPart[] }),
      onEvent: this.#onEvent,
    });
    view.#root = this.#root;
    view.#tallies = this.#tallies;
    view.#gate = this.#gate;
    view.#ungated = this.#ungated;
    // Not from options: the view of an outermost run holds that run's journal, not a new one.
    view.#journal = this.#journal;
    return view;
  }

  /** Returns `context` if given, else a fresh context for these options (nested when they name a parent). */
  static from(options: RunContextOptions & { context?: RunContext } = {}): RunContext {
    return options.context ?? new RunContext(options);
  }

  /**
   * A new run context whose journal (if given one) is read and checked: a journal that is not ours
   * or approvals for calls the run does not wait for reject here, before anything runs or is
   * written. Topologies that build their own context start with it; `runTopology` does.
   */
  static async open(options: RunContextOptions = {}): Promise<RunContext> {
    const context = new RunContext(options);
    await context.#journal?.open();
    return context;
  }

  /**
   * Ends the journal's part of an outermost run (nothing for a nested run, or a run without a
   * journal): emits `journal.diverged` where the journal holds calls this run never made (the
   * code or inputs changed), and throws ConfigError for approvals given for calls the run never
   * reached. Call it once the run has its result or its pause, before `run.end`.
   */
  finishJournal(): void {
    if (this.parent !== undefined || this.#journal === undefined) return;
    const left = this.#journal.finish();
    if (left === undefined) return;
    const first = left.firstUnmatched;
    if (first !== undefined) {
      this.emit({
        type: 'journal.diverged',
        unmatched: left.unmatched,
        path: first.path,
        ...(first.agent !== undefined && { agent: first.agent }),
        ...(first.type === 'model' ? { purpose: first.purpose } : { tool: first.tool }),
        message: `The journal holds ${left.unmatched} call(s) this run did not make, the first at ${first.path.join(' > ')}${first.agent ? ` (agent ${first.agent})` : ''}: the run asked something else there and went on live.`,
      });
    }
    if (left.unusedApprovals.length > 0) {
      throw new ConfigError(
        `approvals for ${left.unusedApprovals.join(', ')} were given, but run ${this.runId} never reached those calls (it no longer matches its journal there). Its work is journaled: run it again without them.`,
      );
    }
  }

  /**
   * Emits an event to the run's listener, stamped with the run id, time and topology; a nested run's
   * events also go to every ancestor's listener, stamped with `parentRunId` and `path` (and
   * `parentToolCallId` when a tool started it).
   */
  emit(event: EventInput): void {
    if (!this.#listened) return;
    const stamped: SwarmEvent = { runId: this.runId, at: new Date().toISOString(), ...event };
    if (this.topology !== undefined && stamped.topology === undefined) stamped.topology = this.topology;
    if (this.parent) {
      stamped.parentRunId = this.parent.runId;
      stamped.path = this.path;
      if (this.parentToolCallId !== undefined) stamped.parentToolCallId = this.parentToolCallId;
    }
    for (let run: RunContext | undefined = this; run; run = run.parent) run.#onEvent?.(stamped);
  }

  /**
   * Closes a trace that ends in an error: emits `run.error` (or `agent.error`) with the message and
   * the error's code, so that a trace is complete whether the run succeeds or fails. A pause
   * (`RunPausedError`) is not a failure: it closes the trace with `run.paused` (or `agent.paused`)
   * listing the calls that wait.
   */
  emitError(type: 'run.error' | 'agent.error', error: unknown, agent?: string): void {
    // An outermost run's error ends it: its journal lease goes back.
    if (type === 'run.error' && this.parent === undefined) this.#journal?.release();
    if (isPause(error)) {
      this.emit({
        type: type === 'run.error' ? 'run.paused' : 'agent.paused',
        ...(agent !== undefined && { agent }),
        pending: error.pending,
      });
      return;
    }
    this.emit({
      type,
      ...(agent !== undefined && { agent }),
      error: errorMessage(error),
      ...(SwarmError.isInstance(error) && { code: error.code }),
    });
  }

  /** Throws `BudgetExceededError` when one more call would pass this run's or an ancestor's budget. */
  checkBudget(): void {
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      const { maxCalls } = run.budget;
      if (maxCalls !== undefined && run.llmCalls + 1 > maxCalls) {
        throw new BudgetExceededError(
          'budget:calls',
          `The ${run === this ? "run's" : "enclosing run's"} budget of ${maxCalls} model calls is spent.`,
        );
      }
    }
    this.#checkTokens();
  }

  #checkTokens(): void {
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      const { maxTokens } = run.budget;
      if (maxTokens !== undefined && run.usage.totalTokens >= maxTokens) {
        throw new BudgetExceededError(
          'budget:tokens',
          `The ${run === this ? "run's" : "enclosing run's"} budget of ${maxTokens} tokens is spent (${run.usage.totalTokens} used).`,
        );
      }
    }
  }

  // Counts calls in this run and every ancestor, so a nested run's calls are the parent's too.
  #countCalls(delta: number): void {
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      run.#root.#llmCalls += delta;
      for (const tally of run.#tallies) tally.llmCalls += delta;
    }
  }

  static {
    startDirectCall = (context, model, request) => context.#directCall(model, request);
    directCallDone = (context, response) => context.#counted(response);
    directCallError = (context, model, request, error) =>
      normalizeError(error, request.signal ?? context.signal, model.id);
    journalOf = (context) => context.#journal;
    pathKeyOf = (context) => context.#journalPath();
    withTally = (context) => {
      const tally: RunTally = { llmCalls: 0, replayedCalls: 0, usage: emptyUsage() };
      const view = context.#view(context.signal);
      view.#tallies = [tally, ...context.#tallies];
      return { context: view, tally };
    };
    gateCalls = (context, until) => {
      const gate: CallGate = {
        settled: until.then(
          () => {
            gate.done = true;
          },
          () => {
            gate.done = true;
          },
        ),
        firstTaken: false,
        done: false,
      };
      context.#gate = gate;
    };
    pendingGateOf = (context) => context.#pendingGate()?.settled;
    ungated = (context) => {
      const view = context.#view(context.signal);
      view.#gate = undefined;
      view.#ungated = true;
      return view;
    };
    rootOf = (context) => {
      let run = context;
      while (run.parent) run = run.parent;
      return run;
    };
  }

  // The run's place in the tree, as journal keys and approval ids name it: the names of the runs
  // from the outermost in, each nested run with the tool call that started it (when one did).
  #journalPath(): string {
    if (this.#pathKey === undefined) {
      const own = this.parentToolCallId === undefined ? this.#name : `${this.#name}@${this.parentToolCallId}`;
      this.#pathKey = this.parent ? `${this.parent.#journalPath()}/${own}` : own;
    }
    return this.#pathKey;
  }

  // `callModel` without its own promise, for a run nobody listens to, no limiter holds and no
  // journal keeps (see `startDirectCall`); undefined otherwise.
  #directCall(model: Model, request: ModelRequest): Promise<ModelResponse> | undefined {
    if (this.limiter || this.#listened || this.#journal || this.#pendingGate()) return undefined;
    return this.#call(model, request, false);
  }

  // The input guardrails this run's calls wait on, if any are still running (its own, or an
  // enclosing run's, up to a guardrail's own run).
  #pendingGate(): CallGate | undefined {
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      const gate = run.#gate;
      if (gate !== undefined && !gate.done) return gate;
      if (run.#ungated) return undefined;
    }
    return undefined;
  }

  /**
   * Makes one model call on behalf of the run: checks the budget, waits for the limiter, emits
   * `model.request` / `model.response` / `model.error`, and adds the usage to the run's totals.
   * With a journal, a call the journal holds is answered from it (events marked `replayed: true`,
   * no provider call); any other is made live and journaled before its answer is returned.
   */
  callModel(model: Model, request: ModelRequest): Promise<ModelResponse> {
    const gate = this.#pendingGate();
    if (gate !== undefined) {
      // The first call runs beside the input guardrails; the others wait for them.
      if (gate.firstTaken) return gate.settled.then(() => this.callModel(model, request));
      gate.firstTaken = true;
    }
    if (this.#journal) return this.#journaledCall(this.#journal, model, request);
    return this.#callLive(model, request);
  }

  async #journaledCall(journal: RunJournal, model: Model, request: ModelRequest): Promise<ModelResponse> {
    if (!journal.isOpen) await journal.open();
    const slot = journal.modelSlot(this.#journalPath(), model.id, request);
    if (slot.response === undefined) {
      const response = await this.#callLive(model, request);
      return journal.recordModel(slot.key, this.path, model.id, request, response);
    }
    // Answered from the journal: checked and counted as a live call is (so the budget takes the
    // same branches on every resume), without the limiter, which paces provider calls.
    throwIfAborted(request.signal);
    const refusal = this.#refusal();
    if (refusal !== undefined) throw refusal.error;
    this.#countCalls(1);
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      run.#root.#replayedCalls += 1;
      for (const tally of run.#tallies) tally.replayedCalls += 1;
    }
    const sequence = ++this.#root.#callSequence;
    if (this.#listened) {
      this.emit({
        type: 'model.request',
        agent: request.metadata?.agent,
        purpose: request.metadata?.purpose,
        callId: `${this.runId}/${sequence}`,
        model: model.id,
        messages: request.messages.length,
        replayed: true,
      });
    }
    const response = this.#counted(slot.response);
    if (this.#listened)
      this.emit({ ...this.#responseEvent(model, request, sequence, response), replayed: true });
    return response;
  }

  // A call made to the model (not answered from a journal).
  #callLive(model: Model, request: ModelRequest): Promise<ModelResponse> {
    // Not async, and nothing awaited: a run in flight holds no suspended frame of this call, and
    // the events are built only when someone listens. What throws here rejects.
    if (!this.limiter) return this.#call(model, request, true);
    const refusal = this.#refusal();
    if (refusal !== undefined) return Promise.reject(refusal.error);
    // The call's place in the budget is taken now, so concurrent calls cannot all pass the check;
    // it is given back if the call never starts (aborted, or refused after waiting for the limiter).
    this.#countCalls(1);
    // Pairs this call's request, response and error events when calls of one agent run concurrently.
    const sequence = ++this.#root.#callSequence;
    const signal = request.signal ?? this.signal;
    let started = false;
    return this.limiter
      .run(
        () => {
          const pending = this.#start(model, request, signal, sequence);
          started = true;
          // Counted before the limiter slot is freed, so the call waiting for it sees these tokens.
          return pending.then((response) => this.#counted(response));
        },
        { signal },
      )
      .then(
        (response) => this.#responded(model, request, sequence, response),
        (error: unknown) => this.#failed(model, request, signal, sequence, error, started),
      );
  }

  // Why a call may not start (the run aborted, or its budget spent), or undefined when it may.
  #refusal(): { error: unknown } | undefined {
    try {
      throwIfAborted(this.signal);
      this.checkBudget();
      return undefined;
    } catch (error) {
      return { error };
    }
  }

  // A call with no limiter to wait for: checked, counted and started at once. `answered` adds the
  // response's usage and events (`callModel`); without it the model's own promise is returned,
  // whose answer and error the caller hands to `directCallDone` / `directCallError`.
  #call(model: Model, request: ModelRequest, answered: boolean): Promise<ModelResponse> {
    const refusal = this.#refusal();
    if (refusal !== undefined) return Promise.reject(refusal.error);
    this.#countCalls(1);
    const sequence = ++this.#root.#callSequence;
    const signal = request.signal ?? this.signal;
    let pending: Promise<ModelResponse>;
    try {
      pending = this.#start(model, request, signal, sequence);
    } catch (error) {
      // Refused before it started (aborted, or the tokens are spent): its place is given back.
      this.#countCalls(-1);
      return Promise.reject(normalizeError(error, signal, model.id));
    }
    if (!answered) return pending;
    return pending.then(
      (response) => this.#responded(model, request, sequence, this.#counted(response)),
      (error: unknown) => this.#failed(model, request, signal, sequence, error, true),
    );
  }

  // Starts a model call: throws (not started) when the run was aborted or its tokens are spent,
  // else emits `model.request` and returns the model's promise (a throwing listener or model rejects it).
  #start(
    model: Model,
    request: ModelRequest,
    signal: AbortSignal | undefined,
    sequence: number,
  ): Promise<ModelResponse> {
    throwIfAborted(signal);
    // Tokens spent by calls that finished while this one waited for a limiter slot count too.
    this.#checkTokens();
    // Started from here: what throws now (a listener, the model) rejects and counts as a failed call.
    try {
      if (this.#listened) {
        this.emit({
          type: 'model.request',
          agent: request.metadata?.agent,
          purpose: request.metadata?.purpose,
          callId: `${this.runId}/${sequence}`,
          model: model.id,
          messages: request.messages.length,
        });
      }
      const sent = signal ? { ...request, signal } : request;
      // Promise.resolve: a hand-written model whose `generate` returns its answer as is still works.
      return Promise.resolve(
        this.textDeltas && model.stream ? this.#streamed(model, sent, sequence) : model.generate(sent),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // Adds a response's usage to this run's totals and every ancestor's.
  #counted(response: ModelResponse): ModelResponse {
    for (let run: RunContext | undefined = this; run; run = run.parent) {
      addUsage(run.usage, response.usage);
      for (const tally of run.#tallies) addUsage(tally.usage, response.usage);
    }
    return response;
  }

  #responded(model: Model, request: ModelRequest, sequence: number, response: ModelResponse): ModelResponse {
    if (this.#listened) this.emit(this.#responseEvent(model, request, sequence, response));
    return response;
  }

  #responseEvent(model: Model, request: ModelRequest, sequence: number, response: ModelResponse): EventInput {
    return {
      type: 'model.response',
      agent: request.metadata?.agent,
      purpose: request.metadata?.purpose,
      callId: `${this.runId}/${sequence}`,
      model: model.id,
      finishReason: response.finishReason,
      toolCalls: response.toolCalls.map((c) => c.name),
      usage: response.usage,
    };
  }

  // A call that failed: one that never started gives its place in the budget back; one that did
  // emits `model.error`. Either way the error is rethrown as a swarm error.
  #failed(
    model: Model,
    request: ModelRequest,
    signal: AbortSignal | undefined,
    sequence: number,
    error: unknown,
    started: boolean,
  ): never {
    const normalized = normalizeError(error, signal, model.id);
    if (!started) {
      this.#countCalls(-1);
      throw normalized;
    }
    this.emit({
      type: 'model.error',
      agent: request.metadata?.agent,
      purpose: request.metadata?.purpose,
      callId: `${this.runId}/${sequence}`,
      model: model.id,
      error: normalized.message,
      ...(SwarmError.isInstance(normalized) && { code: normalized.code }),
    });
    throw normalized;
  }

  // Whether an event would reach anyone: this run's listener, or an ancestor's.
  get #listened(): boolean {
    return this.#onEvent !== undefined || this.parent !== undefined;
  }

  // Emits the call's text as it streams; `callId` (as on `model.request`) tells apart the deltas of
  // calls that stream at once, of one agent too.
  async #streamed(model: Model, request: ModelRequest, sequence: number): Promise<ModelResponse> {
    const agent = request.metadata?.agent;
    const callId = `${this.runId}/${sequence}`;
    for await (const part of model.stream!(request)) {
      if (part.type === 'text-delta') this.emit({ type: 'model.delta', agent, callId, delta: part.delta });
      // A stream cut after some text is made again: what was streamed of it is void.
      if (part.type === 'restart') this.emit({ type: 'model.restart', agent, callId });
      if (part.type === 'finish') return part.response;
    }
    throw new ModelError(`The stream of ${model.id} ended without a finish event.`, { provider: model.id });
  }
}

/**
 * A model call of a run that has no RunContext yet because nothing could observe one: no listener,
 * parent, budget, limiter or text deltas, and no context given (an Agent makes one only if the
 * run goes on to call a tool). It fails as `callModel` would: an AbortError when `signal` has
 * fired, the error normalized by `modelCallError` otherwise. Internal to the package.
 */
export function callModelAlone(
  model: Model,
  request: ModelRequest,
  signal: AbortSignal | undefined,
): Promise<ModelResponse> {
  try {
    throwIfAborted(signal);
    // Promise.resolve: a hand-written model whose `generate` returns its answer as is still works.
    return Promise.resolve(model.generate(signal ? { ...request, signal } : request));
  } catch (error) {
    return Promise.reject(normalizeError(error, signal, model.id));
  }
}

/** The error `callModel` rejects with for what a model call of `callModelAlone` rejected with. */
export function modelCallError(error: unknown, signal: AbortSignal | undefined, model: Model): Error {
  return normalizeError(error, signal, model.id);
}

/** Whether run options ask for anything a RunContext does beyond holding the run's signal. */
export function needsRunContext(options: RunOptions & { context?: RunContext }): boolean {
  return (
    options.context !== undefined ||
    options.parent !== undefined ||
    options.onEvent !== undefined ||
    options.budget !== undefined ||
    options.limiter !== undefined ||
    options.textDeltas === true ||
    options.journal !== undefined ||
    options.runId !== undefined ||
    options.approvals !== undefined
  );
}

// A nested run given its own signal stops when either its own or its parent's fires.
function joinSignals(parent: AbortSignal | undefined, own: AbortSignal | undefined): AbortSignal | undefined {
  if (!parent || !own || parent === own) return own ?? parent;
  return AbortSignal.any([parent, own]);
}

const noBudget: Budget = Object.freeze({});
const noTallies: readonly RunTally[] = Object.freeze([]);

function validateBudget(budget: Budget | undefined): Budget {
  if (budget === undefined) return noBudget;
  for (const key of ['maxCalls', 'maxTokens'] as const) {
    const value = budget[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new ConfigError(`budget.${key} must be an integer >= 0 (got ${value}).`);
    }
  }
  return budget;
}

function normalizeError(error: unknown, signal: AbortSignal | undefined, modelId: string): Error {
  if (SwarmError.isInstance(error)) return error;
  if (signal?.aborted) return new AbortError(undefined, { cause: error });
  if (error instanceof Error) return new ModelError(error.message, { provider: modelId, cause: error });
  return new ModelError(String(error), { provider: modelId, cause: error });
}
