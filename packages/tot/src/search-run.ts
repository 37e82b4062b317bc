import {
  BudgetExceededError,
  budgetStop,
  errorMessage,
  generateObject,
  isAbort,
  isPause,
  Limiter,
  type Model,
  type RunContext,
  throwIfAborted,
} from '@swarm/core';
import type { z } from 'zod';
import type { ResolvedOptions } from './options.js';
import type { ThoughtNode } from './thought-node.js';

/** Which part of the search a call belongs to; also the `purpose` of its model request. */
export type CallPhase = 'generate' | 'evaluate' | 'answer';

const agentSuffix: Record<CallPhase, string> = {
  generate: 'generator',
  evaluate: 'evaluator',
  answer: 'answerer',
};

/**
 * The state of one search: its run context, its worker pool (`maxWorkers`), its counters, and the
 * budget interruption, if any. Strategies make every call through `attempt`.
 */
export class SearchRun {
  readonly ctx: RunContext;
  readonly workers: Limiter;
  /** The first budget error met; once set, no further strategy call starts. */
  interruption: BudgetExceededError | undefined;
  #nextId = 1;
  #largestCall = 0;
  #lastTurn: Promise<void> = Promise.resolve();
  readonly #expanded = new Set<ThoughtNode>();

  constructor(
    readonly task: string,
    readonly options: ResolvedOptions,
    readonly model: () => Model,
    ctx: RunContext,
  ) {
    this.ctx = ctx;
    this.workers = new Limiter({ concurrency: options.maxWorkers });
  }

  /** The next node id of this search. */
  nextId(): number {
    return this.#nextId++;
  }

  /**
   * Reserves a turn in call order: the returned `ready` resolves once every earlier turn was
   * released. Expansions of one level run concurrently but attach their children in turn, so node
   * ids, tie-breaks and events follow the input order, not the order the calls complete in.
   */
  takeTurn(): { ready: Promise<void>; release: () => void } {
    const ready = this.#lastTurn;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#lastTurn = ready.then(() => mine);
    return { ready, release };
  }

  /**
   * Nodes that had candidates generated from them: a generation call was made for them, whether it
   * succeeded or failed. A call the budget refused before it was made does not count.
   */
  get expansions(): number {
    return this.#expanded.size;
  }

  /** Expansions still allowed: 0 once `maxExpansions` is reached or the budget ran out. */
  expansionsLeft(): number {
    if (this.interruption) return 0;
    const cap = this.options.maxExpansions ?? Number.POSITIVE_INFINITY;
    return Math.max(0, cap - this.expansions);
  }

  /** The internal agent name of a phase: `<name>-generator`, `<name>-evaluator`, `<name>-answerer`. */
  agent(phase: CallPhase): string {
    return `${this.options.name}-${agentSuffix[phase]}`;
  }

  /**
   * Runs one strategy call on a worker slot. A failure is a `warning` event and yields `undefined`
   * (it costs that candidate only); a budget error stops the search; an abort propagates.
   */
  async attempt<T>(phase: CallPhase, node: ThoughtNode, call: () => T | Promise<T>): Promise<T | undefined> {
    if (this.interruption) return undefined;
    throwIfAborted(this.ctx.signal);
    try {
      const value = await this.workers.run(async () => call(), { signal: this.ctx.signal });
      if (phase === 'generate') this.#expanded.add(node);
      return value;
    } catch (error) {
      if (isAbort(error) || isPause(error)) throw error;
      if (budgetStop(error)) {
        this.interruption ??= error as BudgetExceededError;
        return undefined;
      }
      if (phase === 'generate') this.#expanded.add(node);
      this.warn(phase, node, error);
      return undefined;
    }
  }

  /** Emits a `warning` event for a call that failed. */
  warn(phase: CallPhase, node: ThoughtNode, error: unknown): void {
    this.ctx.emit({
      type: 'warning',
      agent: this.agent(phase),
      phase,
      nodeId: node.id,
      depth: node.depth,
      message: `${phase} call failed: ${errorMessage(error)}`,
    });
  }

  /**
   * `count` independent attempts of the same structured call, concurrently: one result per attempt,
   * `undefined` where an attempt failed (sampled steps, repeated ratings, repeated votes).
   */
  samples<S extends z.ZodObject>(
    count: number,
    phase: CallPhase,
    node: ThoughtNode,
    request: { schema: S; name: string; description: string; prompt: string },
  ): Promise<(z.output<S> | undefined)[]> {
    return Promise.all(
      Array.from({ length: count }, () => this.attempt(phase, node, () => this.object(phase, request))),
    );
  }

  /** One forced function call validated by `schema`, with the search's model settings. */
  async object<S extends z.ZodObject>(
    phase: CallPhase,
    request: { schema: S; name: string; description: string; prompt: string },
  ): Promise<z.output<S>> {
    const { options } = this;
    if (phase !== 'answer' && options.answerStrategy === 'model') this.#keepRoomForAnswer();
    const result = await generateObject(this.model(), {
      ...request,
      system: options.systemPrompt,
      maxRepairs: options.maxRepairs,
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
      agent: this.agent(phase),
      purpose: phase,
      context: this.ctx,
    });
    this.#largestCall = Math.max(this.#largestCall, result.usage.totalTokens);
    return result.object;
  }

  /**
   * Refuses a search call that would leave no budget for the answer call, so an interrupted search
   * can still answer: exactly for calls; for tokens, the room kept is the largest call seen so far.
   */
  #keepRoomForAnswer(): void {
    const { maxCalls, maxTokens } = this.ctx.budget;
    if (maxCalls !== undefined && this.ctx.llmCalls + 2 > maxCalls) {
      throw new BudgetExceededError(
        'budget:calls',
        `Stopping the search: one of the ${maxCalls} calls is kept for the answer.`,
      );
    }
    if (maxTokens !== undefined && this.ctx.usage.totalTokens + this.#largestCall >= maxTokens) {
      throw new BudgetExceededError(
        'budget:tokens',
        `Stopping the search: the rest of the ${maxTokens} tokens is kept for the answer.`,
      );
    }
  }
}
