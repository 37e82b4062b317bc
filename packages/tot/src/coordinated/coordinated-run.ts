import {
  BudgetExceededError,
  budgetStop,
  errorMessage,
  estimateUsage,
  isAbort,
  isPause,
  RunContext,
  throwIfAborted,
} from '@swarm/core';
import type { CoordinatedThoughtNode } from './coordinated-node.js';
import { type ResolvedCoordinatedOptions, type RoleName, roleNames } from './coordinated-options.js';
import { type SynthesisNode, synthesisPrompt } from './coordinated-prompts.js';
import type { RoleCost } from './coordinated-result.js';

/**
 * The state of one coordinated run: the run context, one nested context per role (so each role's
 * calls and usage are counted exactly, failed and nested calls included), the budget interruption,
 * and the node ids. Every specialist call goes through `attempt`.
 */
export class CoordinatedRun {
  /** The first budget stop met; once set, no exploration call starts. */
  interruption: BudgetExceededError | undefined;
  readonly #roles: Record<RoleName, RunContext>;
  readonly #ids = new Set<string>();
  #inFlight = 0;
  #synthesisNodes: () => SynthesisNode[] = () => [];

  constructor(
    readonly task: string,
    readonly options: ResolvedCoordinatedOptions,
    readonly ctx: RunContext,
  ) {
    // Exploration runs under a budget one call short of the run's, so the Synthesizer always has one.
    const exploration = new RunContext({ parent: ctx, name: 'exploration', budget: explorationBudget(ctx) });
    const role = (name: RoleName, parent: RunContext) => new RunContext({ parent, name });
    this.#roles = {
      planner: role('planner', exploration),
      researcher: role('researcher', exploration),
      analyzer: role('analyzer', exploration),
      critic: role('critic', exploration),
      synthesizer: role('synthesizer', ctx),
    };
  }

  /**
   * Tells the run which nodes the synthesis would get now, so that a token budget keeps what the
   * real synthesis prompt costs (it grows with the tree), not a guess.
   */
  synthesizesFrom(nodes: () => SynthesisNode[]): void {
    this.#synthesisNodes = nodes;
  }

  /** The context a role's calls run in. */
  context(role: RoleName): RunContext {
    return this.#roles[role];
  }

  /** Usage and calls of each role so far, in role order. */
  costs(): Record<RoleName, RoleCost> {
    return Object.fromEntries(
      roleNames.map((name) => {
        const c = this.#roles[name];
        return [name, { usage: { ...c.usage }, llmCalls: c.llmCalls }];
      }),
    ) as Record<RoleName, RoleCost>;
  }

  /** Ids of every node in the tree (the validator refuses a second node with one of them). */
  get ids(): ReadonlySet<string> {
    return this.#ids;
  }

  /** Records a node that entered the tree and emits `tot.node`. */
  added(node: CoordinatedThoughtNode): void {
    this.#ids.add(node.id);
    this.nodeEvent('added', node);
  }

  /** Emits `tot.node` for a node that entered the tree or changed status. */
  nodeEvent(change: 'added' | 'status', node: CoordinatedThoughtNode): void {
    this.ctx.emit({
      type: 'tot.node',
      change,
      nodeId: node.id,
      parentId: node.parentId,
      depth: node.depth,
      status: node.status,
      score: node.score,
      thought: node.thought,
    });
  }

  /** Emits `tot.node` for a node the validator kept out of the tree, with the reason. */
  rejected(
    fields: { id: string; parentId: string | null; depth: number; thought: string },
    reason: string,
  ): void {
    this.ctx.emit({
      type: 'tot.node',
      change: 'rejected',
      nodeId: fields.id,
      parentId: fields.parentId,
      depth: fields.depth,
      thought: fields.thought,
      reason,
    });
  }

  /**
   * Runs one exploration call of `role` in its context. A failure is a `warning` event and yields
   * `undefined` (it costs that call only); a budget stop ends exploration; an abort propagates.
   */
  async attempt<T>(
    role: RoleName,
    node: CoordinatedThoughtNode,
    call: (context: RunContext) => Promise<T>,
  ): Promise<T | undefined> {
    if (this.interruption) return undefined;
    throwIfAborted(this.ctx.signal);
    try {
      this.#keepTokensForSynthesis();
      this.#inFlight += 1;
      try {
        return await call(this.#roles[role]);
      } finally {
        this.#inFlight -= 1;
      }
    } catch (error) {
      if (isAbort(error) || isPause(error)) throw error;
      if (budgetStop(error)) {
        this.interruption ??= error as BudgetExceededError;
        return undefined;
      }
      this.ctx.emit({
        type: 'warning',
        agent: role,
        nodeId: node.id,
        depth: node.depth,
        message: `${role} call failed: ${errorMessage(error)}`,
      });
      return undefined;
    }
  }

  /**
   * With a token budget, refuses an exploration call unless the tokens left cover it and the calls
   * already in flight (each counted as the costliest role call so far, per call on average) and the
   * synthesis: its real prompt from the nodes it would get now, estimated as core estimates a
   * response without usage, plus its answer (the synthesizer's `maxTokens`, else the longest role
   * answer so far).
   */
  #keepTokensForSynthesis(): void {
    const left = tokensLeft(this.ctx);
    if (left === undefined) return;
    let largest = 0;
    let longestAnswer = 0;
    for (const r of roleNames) {
      const { usage, llmCalls } = this.#roles[r];
      largest = Math.max(largest, usage.totalTokens / Math.max(1, llmCalls));
      longestAnswer = Math.max(longestAnswer, usage.outputTokens / Math.max(1, llmCalls));
    }
    const synthesis = this.synthesisTokens(longestAnswer);
    if (left < largest * (this.#inFlight + 1) + synthesis) {
      throw new BudgetExceededError(
        'budget:tokens',
        `Stopping exploration: the ${left} tokens left are kept for the synthesis (about ${Math.ceil(synthesis)}).`,
      );
    }
  }

  /** The tokens the synthesis would cost now: its real prompt (and instructions) and its answer. */
  synthesisTokens(answerTokens: number): number {
    const player = this.options.synthesizer;
    const agent = player.kind === 'agent' ? player.agent : undefined;
    const prompt = synthesisPrompt(this.task, this.#synthesisNodes());
    const { inputTokens } = estimateUsage(
      {
        ...(agent?.instructions !== undefined && { system: agent.instructions }),
        messages: [{ role: 'user', content: prompt }],
      },
      '',
      [],
    );
    return inputTokens + (agent?.maxTokens ?? answerTokens);
  }
}

// The fewest calls left under the run's or any enclosing run's maxCalls, less the synthesis call.
function explorationBudget(ctx: RunContext): { maxCalls?: number } {
  let left: number | undefined;
  for (let run: RunContext | undefined = ctx; run; run = run.parent) {
    const { maxCalls } = run.budget;
    if (maxCalls !== undefined) left = Math.min(left ?? Number.POSITIVE_INFINITY, maxCalls - run.llmCalls);
  }
  return left === undefined ? {} : { maxCalls: Math.max(0, left - 1) };
}

function tokensLeft(ctx: RunContext): number | undefined {
  let left: number | undefined;
  for (let run: RunContext | undefined = ctx; run; run = run.parent) {
    const { maxTokens } = run.budget;
    if (maxTokens !== undefined) {
      left = Math.min(left ?? Number.POSITIVE_INFINITY, maxTokens - run.usage.totalTokens);
    }
  }
  return left;
}
