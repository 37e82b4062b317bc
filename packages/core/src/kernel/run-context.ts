import type { EventInput } from '../contracts/events.js';
import type { ContentPart, Model, ModelRequest, ModelResponse, Usage } from '../contracts/model.js';
import type { Budget, RunHandle, RunLimiter } from '../contracts/run.js';
import { validateApprovals } from './approval.js';
import { validateContentParts } from './content-parts.js';
import { ConfigError } from './errors.js';
import { validateJournal, validateRunId } from './journal.js';
import { callModel } from './model-call.js';
import { RunJournal } from './run-journal.js';
import type { RunOptions } from './run-options.js';
import { type CallGate, RunState, type RunTally } from './run-state.js';
import { emptyUsage } from './usage.js';

export type { Budget } from '../contracts/run.js';
export type { RunOptions } from './run-options.js';
export type { RunTally } from './run-state.js';

/** What a run context is built from: the run options, and the name the run goes by in traces. */
export interface RunContextOptions extends RunOptions {
  /** The topology type of this run (`'ForestSwarm'`), stamped on its events and used in `path`. */
  topology?: string;
  /** The run's name in a nested trace's `path` when it has no topology (an agent's name). */
  name?: string;
}

// Every context's kernel state, for the kernel's modules (`stateOf`); a context keeps its own in #state.
const states = new WeakMap<RunContext, RunState>();
// A state a new context adopts instead of building one from options (a view: see `withSignal`).
let adopting: RunState | undefined;

/**
 * The state of one run: its id, events, budget, limiter and totals. Topologies create one per run
 * and hand it to every agent call, so that budget and usage cover all agents together. Given a
 * `parent`, the run is nested: calls, usage, budget and events are shared with every ancestor.
 */
export class RunContext implements RunHandle {
  readonly #state: RunState;
  /** The run this one is nested in, if any. */
  readonly parent: RunContext | undefined;

  constructor(options: RunContextOptions = {}) {
    const adopted = adopting;
    adopting = undefined;
    const parent = options.parent === undefined ? undefined : contextOf(options.parent);
    this.parent = parent;
    this.#state = adopted ?? stateFor(options, parent);
    states.set(this, this.#state);
  }

  /** The run's id, unique across processes (made at its first read: most runs nobody asks). */
  get runId(): string {
    return this.#state.runId;
  }
  /** The topology type of this run, if it is a topology's. */
  get topology(): string | undefined {
    return this.#state.topology;
  }
  get signal(): AbortSignal | undefined {
    return this.#state.signal;
  }
  get limiter(): RunLimiter | undefined {
    return this.#state.limiter;
  }
  get budget(): Budget {
    return this.#state.budget;
  }
  get textDeltas(): boolean {
    return this.#state.textDeltas;
  }
  /** The run's attachments (`RunOptions.attachments`), its own or its parent's. */
  get attachments(): readonly ContentPart[] | undefined {
    return this.#state.attachments;
  }
  /** Names of the runs from the outermost to this one (topology types, or agent names). */
  get path(): readonly string[] {
    return this.#state.path;
  }
  /** The parent's tool call this nested run answers, if a tool started it. */
  get parentToolCallId(): string | undefined {
    return this.#state.parentToolCallId;
  }
  /** Tokens used by every call of the run so far, nested runs included. */
  get usage(): Usage {
    return this.#state.usage;
  }
  /** Model calls started so far, failed ones and nested runs' included. */
  get llmCalls(): number {
    return this.#state.root.llmCalls;
  }
  set llmCalls(value: number) {
    this.#state.root.llmCalls = value;
  }
  /** Model calls of the run answered from its journal (`llmCalls` counts them too), nested runs' included. */
  get replayedCalls(): number {
    return this.#state.root.replayedCalls;
  }

  /**
   * The same run with one more cancel signal: it fires when `signal` or the run's own signal does.
   * Everything else is this run's (id, path, events, budget, limiter, totals), so work given the
   * returned context is part of the run, not a nested run. For a time limit on part of a run.
   */
  withSignal(signal: AbortSignal | undefined): RunContext {
    if (!signal || signal === this.signal) return this;
    return viewOf(this, this.#state.view(joinSignals(this.signal, signal)));
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
    await context.#state.journal?.open();
    return context;
  }

  /**
   * Ends the journal's part of an outermost run (nothing for a nested run, or a run without a
   * journal): emits `journal.diverged` where the journal holds calls this run never made (the
   * code or inputs changed), and throws ConfigError for approvals given for calls the run never
   * reached. Call it once the run has its result or its pause, before `run.end`.
   */
  finishJournal(): void {
    const state = this.#state;
    if (state.parent !== undefined || state.journal === undefined) return;
    const left = state.journal.finish();
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
    this.#state.emit(event);
  }

  /**
   * Closes a trace that ends in an error: emits `run.error` (or `agent.error`) with the message and
   * the error's code, so that a trace is complete whether the run succeeds or fails. A pause
   * (`RunPausedError`) is not a failure: it closes the trace with `run.paused` (or `agent.paused`)
   * listing the calls that wait.
   */
  emitError(type: 'run.error' | 'agent.error', error: unknown, agent?: string): void {
    this.#state.emitError(type, error, agent);
  }

  /** Throws `BudgetExceededError` when one more call would pass this run's or an ancestor's budget. */
  checkBudget(): void {
    this.#state.checkBudget();
  }

  /**
   * Makes one model call on behalf of the run: checks the budget, waits for the limiter, emits
   * `model.request` / `model.response` / `model.error`, and adds the usage to the run's totals.
   * With a journal, a call the journal holds is answered from it (events marked `replayed: true`,
   * no provider call); any other is made live and journaled before its answer is returned.
   */
  callModel(model: Model, request: ModelRequest): Promise<ModelResponse> {
    return callModel(this.#state, model, request);
  }
}

// The kernel's reach into a run, for the modules of the package (not exported from its index).

/** A run's kernel state. Internal to the package. */
export function stateOf(context: RunContext): RunState {
  return states.get(context)!;
}

/** The run's journal, when it has one (its own, or its outermost run's). Internal to the package. */
export function journalOf(context: RunContext): RunJournal | undefined {
  return stateOf(context).journal;
}

/**
 * The run's place in the run tree as the journal keys it: each run's name from the outermost in,
 * with the tool call that started a nested run. Internal to the package.
 */
export function pathKeyOf(context: RunContext): string {
  return stateOf(context).pathKey;
}

/** The outermost run of `context`'s tree. Internal to the package. */
export function rootOf(context: RunContext): RunContext {
  let run = context;
  while (run.parent) run = run.parent;
  return run;
}

/**
 * The same run, with a tally of its own: every call made through the returned context, and by every
 * run nested in it, is counted in the tally as well as in the run's totals. An Agent running in a
 * topology's shared context gives its tools one, so its result counts the runs its tools started
 * and not its siblings' calls. Internal to the package.
 */
export function withTally(context: RunContext): { context: RunContext; tally: RunTally } {
  const tally: RunTally = { llmCalls: 0, replayedCalls: 0, usage: emptyUsage() };
  const state = stateOf(context);
  const view = state.view(state.signal);
  view.tallies = [tally, ...state.tallies];
  return { context: viewOf(context, view), tally };
}

/**
 * Holds the run's model calls on `until` (its input guardrails): the first call starts beside
 * them, every later call of the run and of the runs nested in it waits until they settle. Internal.
 */
export function gateCalls(context: RunContext, until: Promise<unknown>): void {
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
  stateOf(context).gate = gate;
}

/**
 * The same run, for the guardrails' own runs (an Agent used as a guardrail): its calls do not wait
 * on the guardrails they are part of. Internal to the package.
 */
export function ungated(context: RunContext): RunContext {
  const state = stateOf(context);
  const view = state.view(state.signal);
  view.gate = undefined;
  view.ungated = true;
  return viewOf(context, view);
}

/** When input guardrails hold the run's calls: a promise that settles when they have run. Internal. */
export function pendingGateOf(context: RunContext): Promise<void> | undefined {
  return stateOf(context).pendingGate()?.settled;
}

/**
 * The RunContext behind a run handle (`RunOptions.parent`, a guardrail's or a tool's `run`): every
 * handle the package gives out is one. Throws ConfigError for anything else.
 */
export function contextOf(handle: RunHandle): RunContext {
  if (handle instanceof RunContext) return handle;
  throw new ConfigError(
    "parent must be a RunContext (the `run` a tool or guardrail is given, or a topology's context).",
  );
}

// A context over `state` (a view of `of`'s run), with `of`'s parent.
function viewOf(of: RunContext, state: RunState): RunContext {
  adopting = state;
  return new RunContext({ ...(of.parent && { parent: of.parent }) });
}

// The state of a new run from its options: checked, nested in `parent` when given one.
function stateFor(options: RunContextOptions, parent: RunContext | undefined): RunState {
  if (options.runId !== undefined) validateRunId(options.runId);
  let journal = parent ? journalOf(parent) : undefined;
  if (parent && (options.journal !== undefined || options.approvals !== undefined)) {
    throw new ConfigError(
      'A nested run (given a parent) uses the journal of its outermost run: give journal and approvals to that run.',
    );
  }
  const runId = options.runId;
  let state: RunState | undefined;
  if (!parent && options.journal !== undefined) {
    const store = validateJournal(options.journal);
    if (options.approvals !== undefined && options.runId === undefined) {
      throw new ConfigError('approvals resume a paused run: give its runId too.');
    }
    const approvals = options.approvals === undefined ? undefined : validateApprovals(options.approvals);
    state = newState(options, parent, undefined);
    journal = new RunJournal(store, state.runId, approvals);
    state.journal = journal;
    return state;
  }
  if (!parent && options.approvals !== undefined) {
    throw new ConfigError(
      'approvals resume a paused run from its journal: give the journal and runId the run paused with.',
    );
  }
  return newState({ ...options, ...(runId !== undefined && { runId }) }, parent, journal);
}

function newState(
  options: RunContextOptions,
  parent: RunContext | undefined,
  journal: RunJournal | undefined,
): RunState {
  const parentState = parent && stateOf(parent);
  return new RunState({
    runId: options.runId,
    parent: parentState,
    name: options.topology ?? options.name ?? 'run',
    topology: options.topology,
    parentToolCallId: parent ? options.parentToolCallId : undefined,
    signal: joinSignals(parentState?.signal, options.signal),
    limiter: options.limiter ?? parentState?.limiter,
    budget: validateBudget(options.budget),
    textDeltas: options.textDeltas ?? parentState?.textDeltas ?? false,
    attachments:
      options.attachments === undefined
        ? parentState?.attachments
        : validateContentParts(options.attachments, 'attachments'),
    onEvent: options.onEvent,
    journal,
  });
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
