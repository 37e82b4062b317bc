import type { EventInput, SwarmEvent } from '../contracts/events.js';
import type { ContentPart, Usage } from '../contracts/model.js';
import type { Budget, RunLimiter } from '../contracts/run.js';
import { BudgetExceededError, errorMessage, isPause, SwarmError } from './errors.js';
import { newRunId } from './run-id.js';
import type { RunJournal } from './run-journal.js';
import { addUsage, emptyUsage } from './usage.js';

/** Calls, replayed calls and usage counted for one part of a run (see `withTally`). */
export interface RunTally {
  llmCalls: number;
  replayedCalls: number;
  usage: Usage;
}

/** Input guardrails the run's calls wait on: the first call starts beside them, the rest after. */
export interface CallGate {
  readonly settled: Promise<void>;
  firstTaken: boolean;
  done: boolean;
}

/** What a run's state is made from (a RunContext's checked options). */
export interface RunStateInit {
  runId: string | undefined;
  parent: RunState | undefined;
  name: string;
  topology: string | undefined;
  parentToolCallId: string | undefined;
  signal: AbortSignal | undefined;
  limiter: RunLimiter | undefined;
  budget: Budget;
  textDeltas: boolean;
  attachments: readonly ContentPart[] | undefined;
  onEvent: ((event: SwarmEvent) => void) | undefined;
  journal: RunJournal | undefined;
}

/**
 * The kernel's state of one run, behind its public `RunContext`: identity, events, totals, budget,
 * tallies, the call gate and the journal. Internal to the package: users hold the RunContext, and
 * the kernel reaches this through `stateOf(context)`.
 */
export class RunState {
  readonly parent: RunState | undefined;
  readonly name: string;
  readonly topology: string | undefined;
  readonly parentToolCallId: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly limiter: RunLimiter | undefined;
  readonly budget: Budget;
  readonly textDeltas: boolean;
  readonly attachments: readonly ContentPart[] | undefined;
  readonly onEvent: ((event: SwarmEvent) => void) | undefined;
  journal: RunJournal | undefined;
  /** The run whose totals this one counts into: itself, or for a view the run it views. */
  root: RunState = this;
  /** Tallies of parts of the run that calls through this state also count in (see withTally). */
  tallies: readonly RunTally[] = noTallies;
  /** Input guardrails the run's calls wait on; a guardrail's own run is ungated. */
  gate: CallGate | undefined;
  ungated = false;
  /**
   * Members whose final answer must not be blank (`nonEmptyAnswer`), by name, with whether their
   * Agent asked its model once more: held on the run's root, so a view of the run sees it too.
   */
  answersWanted: Map<string, { retried: boolean }> | undefined;
  llmCalls = 0;
  replayedCalls = 0;
  callSequence = 0;
  #runId: string | undefined;
  #path: readonly string[] | undefined;
  #pathKey: string | undefined;
  // Made at the first response (or read): a run waiting for its first answer holds no usage object.
  #usage: Usage | undefined;

  constructor(init: RunStateInit) {
    this.#runId = init.runId;
    this.parent = init.parent;
    this.name = init.name;
    this.topology = init.topology;
    this.parentToolCallId = init.parentToolCallId;
    this.signal = init.signal;
    this.limiter = init.limiter;
    this.budget = init.budget;
    this.textDeltas = init.textDeltas;
    this.attachments = init.attachments;
    this.onEvent = init.onEvent;
    this.journal = init.journal;
  }

  /** The run's id, unique across processes (made at its first read: most runs nobody asks). */
  get runId(): string {
    this.#runId ??= newRunId();
    return this.#runId;
  }

  /** Names of the runs from the outermost to this one (made at the first read). */
  get path(): readonly string[] {
    this.#path ??= Object.freeze([...(this.parent?.path ?? []), this.name]);
    return this.#path;
  }

  /**
   * The run's place in the tree as journal keys and approval ids name it: the names of the runs
   * from the outermost in, each nested run with the tool call that started it (when one did).
   */
  get pathKey(): string {
    if (this.#pathKey === undefined) {
      const own = this.parentToolCallId === undefined ? this.name : `${this.name}@${this.parentToolCallId}`;
      this.#pathKey = this.parent ? `${this.parent.pathKey}/${own}` : own;
    }
    return this.#pathKey;
  }

  /** Tokens of the run's totals (its root's). */
  get usage(): Usage {
    const root = this.root;
    root.#usage ??= emptyUsage();
    return root.#usage;
  }

  /** Whether an event would reach anyone: this run's listener, or an ancestor's. */
  get listened(): boolean {
    return this.onEvent !== undefined || this.parent !== undefined;
  }

  /** The outermost run of this one's tree. */
  get outermost(): RunState {
    let run: RunState = this;
    while (run.parent) run = run.parent;
    return run;
  }

  /** This run seen with other signal, sharing everything else (totals, tallies, gate, journal). */
  view(signal: AbortSignal | undefined): RunState {
    const view = new RunState({
      runId: this.runId,
      parent: this.parent,
      name: this.name,
      topology: this.topology,
      parentToolCallId: this.parentToolCallId,
      signal,
      limiter: this.limiter,
      budget: this.budget,
      textDeltas: this.textDeltas,
      attachments: this.attachments,
      onEvent: this.onEvent,
      journal: this.journal,
    });
    view.root = this.root;
    view.tallies = this.tallies;
    view.gate = this.gate;
    view.ungated = this.ungated;
    return view;
  }

  /** Stamps and delivers an event to this run's listener and every ancestor's. */
  emit(event: EventInput): void {
    if (!this.listened) return;
    const stamped: SwarmEvent = { runId: this.runId, at: new Date().toISOString(), ...event };
    if (this.topology !== undefined && stamped.topology === undefined) stamped.topology = this.topology;
    if (this.parent) {
      stamped.parentRunId = this.parent.runId;
      stamped.path = this.path;
      if (this.parentToolCallId !== undefined) stamped.parentToolCallId = this.parentToolCallId;
    }
    for (let run: RunState | undefined = this; run; run = run.parent) run.onEvent?.(stamped);
  }

  /** `run.error` / `agent.error` for a failure, `run.paused` / `agent.paused` for a pause. */
  emitError(type: 'run.error' | 'agent.error', error: unknown, agent?: string): void {
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
    for (let run: RunState | undefined = this; run; run = run.parent) {
      const { maxCalls } = run.budget;
      if (maxCalls !== undefined && run.root.llmCalls + 1 > maxCalls) {
        throw new BudgetExceededError(
          'budget:calls',
          `The ${run === this ? "run's" : "enclosing run's"} budget of ${maxCalls} model calls is spent.`,
        );
      }
    }
    this.checkTokens();
  }

  /** Throws `BudgetExceededError` when this run's or an ancestor's tokens are spent. */
  checkTokens(): void {
    for (let run: RunState | undefined = this; run; run = run.parent) {
      const { maxTokens } = run.budget;
      if (maxTokens !== undefined && run.usage.totalTokens >= maxTokens) {
        throw new BudgetExceededError(
          'budget:tokens',
          `The ${run === this ? "run's" : "enclosing run's"} budget of ${maxTokens} tokens is spent (${run.usage.totalTokens} used).`,
        );
      }
    }
  }

  /** Counts calls in this run and every ancestor, so a nested run's calls are the parent's too. */
  countCalls(delta: number): void {
    for (let run: RunState | undefined = this; run; run = run.parent) {
      run.root.llmCalls += delta;
      for (const tally of run.tallies) tally.llmCalls += delta;
    }
  }

  /** Counts one call answered from the journal in this run and every ancestor. */
  countReplayed(): void {
    for (let run: RunState | undefined = this; run; run = run.parent) {
      run.root.replayedCalls += 1;
      for (const tally of run.tallies) tally.replayedCalls += 1;
    }
  }

  /** Adds a response's usage to this run's totals and every ancestor's. */
  addUsage(usage: Usage): void {
    for (let run: RunState | undefined = this; run; run = run.parent) {
      addUsage(run.usage, usage);
      for (const tally of run.tallies) addUsage(tally.usage, usage);
    }
  }

  /** The input guardrails this run's calls wait on, if still running (up to a guardrail's own run). */
  pendingGate(): CallGate | undefined {
    for (let run: RunState | undefined = this; run; run = run.parent) {
      const gate = run.gate;
      if (gate !== undefined && !gate.done) return gate;
      if (run.ungated) return undefined;
    }
    return undefined;
  }
}

const noTallies: readonly RunTally[] = Object.freeze([]);
