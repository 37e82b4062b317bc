// Contracts layer: types only, imported by every layer above (no imports of its own).
import type { z } from 'zod';
import type { EventInput, SwarmEvent } from './events.js';
import type { ContentPart, Model, ModelRequest, ModelResponse, Usage } from './model.js';

/** A whole-run budget over all agents together. */
export interface Budget {
  maxCalls?: number;
  maxTokens?: number;
}

/** A shared limiter as a run sees it (core's `Limiter` is one): it runs calls under its limits. */
export interface RunLimiter {
  /** Calls in flight at once. */
  readonly concurrency: number;
  /** Calls started in any rolling minute, if limited. */
  readonly requestsPerMinute: number | undefined;
  /** Calls running now. */
  readonly pending: number;
  /** Calls waiting for a slot. */
  readonly waiting: number;
  run<T>(fn: () => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
}

/**
 * A run as the layers below the kernel's `RunContext` see it: what a guardrail's check, a nested
 * run's `parent` or a tool is given. Every `RunContext` is one; pass it on as `parent` to nest a
 * run in it.
 */
export interface RunHandle {
  readonly runId: string;
  /** Names of the runs from the outermost to this one. */
  readonly path: readonly string[];
  readonly topology: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The shared limiter the run's calls wait for, its own or its parent's. */
  readonly limiter: RunLimiter | undefined;
  readonly budget: Budget;
  /** Whether model text streams as `model.delta` events. */
  readonly textDeltas: boolean;
  /** The run's attachments, its own or its parent's. */
  readonly attachments: readonly ContentPart[] | undefined;
  /** Tokens used by every call of the run so far, nested runs included. */
  readonly usage: Usage;
  /** Model calls started so far, failed ones and nested runs' included. */
  readonly llmCalls: number;
  /** Of `llmCalls`, those answered from the run's journal. */
  readonly replayedCalls: number;
  /** Emits an event to the run's listeners, stamped with the run's id, time and place. */
  emit(event: EventInput): void;
  /** Closes a trace that ends in an error (or a pause) with `run.error` / `agent.error` (or `*.paused`). */
  emitError(type: 'run.error' | 'agent.error', error: unknown, agent?: string): void;
  /** Throws `BudgetExceededError` when one more call would pass the run's or an ancestor's budget. */
  checkBudget(): void;
  /** Makes one model call on behalf of the run (budget, limiter, events, journal, totals). */
  callModel(model: Model, request: ModelRequest): Promise<ModelResponse>;
}

/** What a guardrail found: `tripwire: true` ends the run with `GuardrailTripwireError`. */
export interface GuardrailResult {
  tripwire: boolean;
  /** What it saw, for the error and the trace (plain data). */
  info?: unknown;
}

/** What a guardrail's check is given besides the value. */
export interface GuardrailContext {
  /** Which side of the run it guards. */
  kind: 'input' | 'output';
  /** The run it guards: a check's own model calls belong to it (budget, trace, totals). */
  run: RunHandle;
  /** Fires when the run is cancelled. */
  signal: AbortSignal | undefined;
}

/** A check of a run's input (before it reaches the model) or its output (before it reaches the user). */
export interface Guardrail {
  name: string;
  check(value: string, context: GuardrailContext): GuardrailResult | Promise<GuardrailResult>;
}

/**
 * An agent used as a guardrail, as the guardrail layer sees one (every `Agent` whose `outputType`
 * has a boolean `tripwire` is one): it is run on the value, nested in the guarded run.
 */
export interface GuardrailAgent {
  readonly name: string;
  readonly outputType: z.ZodObject | undefined;
  run(input: string, options: { parent: RunHandle }): Promise<{ finalOutput: unknown }>;
}

/**
 * A guardrail, or an Agent used as one: it is run on the value (nested in the guarded run) and its
 * `outputType` must have a `tripwire` boolean; its whole final object is the `info`.
 */
export type GuardrailLike = Guardrail | GuardrailAgent;

/** Guardrails of an Agent or a topology: input ones run beside the first model call, output ones on the answer. */
export interface GuardrailOptions {
  /** Checks of the input; one that trips cancels the run, its first model call included. */
  inputGuardrails?: readonly GuardrailLike[];
  /** Checks of the final output before the run returns it. */
  outputGuardrails?: readonly GuardrailLike[];
}

/** A live run: iterate its events as they happen, then await `result`. */
export interface RunStream<R> extends AsyncIterable<SwarmEvent> {
  readonly result: Promise<R>;
}

/**
 * Anything that runs a task nested in another run: an Agent or a Topology, as the layers below the
 * composition layer see one (`asTool` takes it).
 */
export interface Runnable {
  readonly name: string;
  /** What it is for (an Agent's description); a Topology has none. */
  readonly description?: string | undefined;
  /** A Topology's type (`'ForestSwarm'`); an Agent has none. */
  readonly type?: string;
  run(task: string, options: { parent: RunHandle; parentToolCallId?: string }): Promise<{ output: string }>;
}
