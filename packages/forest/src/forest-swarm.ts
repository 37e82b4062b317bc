import {
  BaseTopology,
  booleanOption,
  ConfigError,
  Conversation,
  errorMessage,
  type GuardrailOptions,
  NoRouteError,
  nodeBuiltin,
  type RunContext,
  type RunOptions,
  runTopology,
  runTopologyBatch,
  type Settled,
  type TopologyResult,
} from '@swarm/core';
import { cachedEmbedder, type Embedder, embedder as resolveEmbedder } from '@swarm/embeddings';
import { AgentRouter, type RouterOutcome, type RouterSettings } from './agent-router.js';
import { forestLocalEmbedder } from './default-embedder.js';
import type { AgentLogInput, AgentLogOutput, ForestLogger, TreeLog } from './logs.js';
import { consoleLogger, preview } from './logs.js';
import type { RouteDecision, RoutingStrategy } from './route-decision.js';
import { Tree } from './tree.js';
import { checkThreshold, DEFAULT_KEYWORD_WEIGHT, DEFAULT_THRESHOLD, TreeAgent } from './tree-agent.js';

/** Options of a ForestSwarm. */
export interface ForestSwarmOptions extends GuardrailOptions {
  /** Default `'default-forest-swarm'`. */
  name?: string;
  description?: string;
  /** The trees; with `routing: 'first'` they are searched in this order. */
  trees: Tree[];
  /** Embeds prompts and tasks: an Embedder or a spec such as `'openai:text-embedding-3-small'` (default: `'local'`). */
  embedder?: Embedder | string;
  /** `'best'` (default): the best score across all trees wins. `'first'`: the seed's first relevant agent. */
  routing?: RoutingStrategy;
  /**
   * Similarity an agent needs when none of its keywords is in the task: a number from -1 to 1 for
   * every agent, or `'auto'` (default): each agent's own, calibrated on reference texts with this
   * embedder, so the rule holds whatever the embedder's scale.
   */
  threshold?: number | 'auto';
  /** Score added per unit of matched keyword specificity (default 0.3, accepted 0 to 1). */
  keywordWeight?: number;
  /**
   * Whether keyword evidence of a single word must agree in sense (default true): in the packaged
   * word vectors of `@swarm/embeddings`, whatever the embedder, the task must be closer to the
   * agent's prompt than the reference texts are on average with that word added; otherwise the word
   * counts as weak. `false` skips the check and never loads the word vectors.
   */
  senseCheck?: boolean;
  /** Takes the tasks no agent is relevant to, instead of a `NoRouteError`. */
  fallback?: TreeAgent;
  /** Most texts per embedding call (default: the embedder's own limit). */
  maxBatchSize?: number;
  /**
   * Most task texts the forest remembers the vectors of (default 10,000; the least recently used
   * are forgotten), so a long-lived forest's memory stays bounded. Agent vectors are kept apart.
   */
  cacheSize?: number;
  /** Log decisions and records through `logger` (default false). */
  verbose?: boolean;
  /** Where verbose lines go (default: console.log). */
  logger?: ForestLogger;
  /**
   * Save the conversation (each task and its answer) here, atomically, after every run. Node.js
   * only (a file): elsewhere leave it out and keep `forest.conversation.toJSON()` yourself.
   */
  conversationPath?: string;
}

/** The seed's three log records of one task. */
export interface ForestLogs {
  agentInput: AgentLogInput;
  agentOutput: AgentLogOutput;
  /** Absent only when a fallback agent outside every tree answered. */
  tree?: TreeLog;
}

/** What `run` returns: the answer, why that agent was chosen, and what it cost. */
export interface ForestResult extends TopologyResult {
  decision: RouteDecision;
  logs: ForestLogs;
}

/** Options of `batchedRun`. */
export interface BatchedRunOptions extends RunOptions {
  /**
   * How many tasks run at once (default: all of them, so the batch takes as long as its slowest
   * task; a shared `limiter` still caps the model calls in flight). Set it to cap memory or spend.
   */
  maxWorkers?: number;
}

/**
 * Routes every task to the most relevant specialist across a forest of trees, then lets that agent
 * answer. Routing needs no model call: agent prompts are embedded once, lazily and in one batch,
 * each task once, and the decision explains itself.
 */
export class ForestSwarm extends BaseTopology<ForestResult> {
  readonly type = 'ForestSwarm';
  readonly name: string;
  readonly description: string;
  readonly trees: readonly Tree[];
  readonly routing: RoutingStrategy;
  readonly threshold: number | 'auto';
  readonly keywordWeight: number;
  readonly senseCheck: boolean;
  readonly fallback: TreeAgent | undefined;
  readonly verbose: boolean;
  readonly conversationPath: string | undefined;
  /** Every task and answer of this forest's runs, in the order they finished. */
  readonly conversation = new Conversation();
  readonly #logger: ForestLogger;
  readonly #router: AgentRouter<TreeAgent>;
  readonly #treeOf = new Map<TreeAgent, Tree>();
  #saving: Promise<void> = Promise.resolve();

  constructor(options: ForestSwarmOptions) {
    super();
    const trees = options?.trees;
    if (!Array.isArray(trees) || trees.length === 0) {
      throw new ConfigError('ForestSwarm: trees must be a non-empty array of Tree.');
    }
    const routing = options.routing ?? 'best';
    if (routing !== 'best' && routing !== 'first') {
      throw new ConfigError(
        `ForestSwarm: routing must be 'best' or 'first' (got ${JSON.stringify(routing)}).`,
      );
    }
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    checkThreshold('ForestSwarm', threshold);
    const keywordWeight = options.keywordWeight ?? DEFAULT_KEYWORD_WEIGHT;
    if (typeof keywordWeight !== 'number' || !(keywordWeight >= 0 && keywordWeight <= 1)) {
      throw new ConfigError(
        `ForestSwarm: keywordWeight must be a number from 0 to 1 (got ${keywordWeight}).`,
      );
    }
    const senseCheck = booleanOption('ForestSwarm', 'senseCheck', options.senseCheck, true);
    const cacheSize = options.cacheSize ?? 10_000;
    if (!(Number.isInteger(cacheSize) && cacheSize >= 1)) {
      throw new ConfigError(`ForestSwarm: cacheSize must be an integer >= 1 (got ${cacheSize}).`);
    }
    const treeNames = new Set<string>();
    const agentNames = new Set<string>();
    if (options.fallback !== undefined && !(options.fallback instanceof TreeAgent)) {
      throw new ConfigError('ForestSwarm: fallback must be a TreeAgent.');
    }
    for (const tree of trees) {
      if (!(tree instanceof Tree)) throw new ConfigError('ForestSwarm: trees must be Tree instances.');
      if (treeNames.has(tree.name)) throw new ConfigError(`ForestSwarm: two trees are named "${tree.name}".`);
      treeNames.add(tree.name);
      for (const agent of tree.agents) {
        if (agentNames.has(agent.name)) {
          throw new ConfigError(
            `ForestSwarm: the agent name "${agent.name}" appears twice; names must be unique across the forest.`,
          );
        }
        agentNames.add(agent.name);
        this.#treeOf.set(agent, tree);
      }
    }
    this.name = options.name ?? 'default-forest-swarm';
    this.description = options.description ?? 'Standard forest swarm';
    this.trees = [...trees];
    this.routing = routing;
    this.threshold = threshold;
    this.keywordWeight = keywordWeight;
    this.senseCheck = senseCheck;
    this.fallback = options.fallback;
    this.verbose = options.verbose ?? false;
    this.#logger = options.logger ?? consoleLogger;
    if (options.conversationPath !== undefined) {
      nodeBuiltin(
        'node:fs/promises',
        'ForestSwarm: conversationPath',
        'leave it out and keep forest.conversation.toJSON() in a store of your own.',
      );
    }
    this.conversationPath = options.conversationPath;
    const base =
      options.embedder === undefined || options.embedder === 'local'
        ? forestLocalEmbedder()
        : resolveEmbedder(options.embedder);
    this.#router = new AgentRouter(
      this.trees.flatMap((tree) => tree.agents.map((agent) => ({ tree: tree.name, agent }))),
      cachedEmbedder(base, {
        maxEntries: cacheSize,
        ...(options.maxBatchSize !== undefined && { maxBatchSize: options.maxBatchSize }),
      }),
    );
    this.withGuardrails(options);
  }

  /**
   * Decides which agent takes the task, without any model call; throws `NoRouteError` when none
   * fits (and no fallback is set), and `ConfigError` for an empty or blank task.
   */
  async route(task: string, options: { signal?: AbortSignal } = {}): Promise<RouteDecision> {
    const [settled] = await this.routeAll([task], options);
    if (settled!.status === 'rejected') throw settled!.reason;
    return settled!.value;
  }

  /**
   * Decides for many tasks with one embedding call for all of them; settled results in task order.
   * An empty or blank task is rejected with a `ConfigError` and not embedded.
   */
  async routeAll(
    tasks: readonly string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Settled<RouteDecision>[]> {
    const blank = tasks.map((task) => typeof task !== 'string' || task.trim() === '');
    const outcomes = await this.#router.route(
      tasks.filter((_, i) => !blank[i]),
      this.#settings(),
      options.signal,
    );
    let next = 0;
    return tasks.map((task, i) => {
      try {
        // A blank task is not routed: checking it throws the ConfigError.
        if (blank[i]) this.#checkTask(task);
        return { status: 'fulfilled', value: this.#decision(outcomes[next++]!) };
      } catch (reason) {
        return { status: 'rejected', reason };
      }
    });
  }

  /** The tree whose agent the task would go to, or undefined when no agent is relevant. */
  async findRelevantTree(task: string, options: { signal?: AbortSignal } = {}): Promise<Tree | undefined> {
    this.#checkTask(task);
    const [outcome] = await this.#router.route([task], this.#settings(), options.signal);
    const agent = outcome?.chosen?.entry.agent;
    return agent ? this.#treeOf.get(agent) : undefined;
  }

  /** Routes the task and runs it with the chosen agent; a failure is thrown, never returned as text. */
  async run(task: string, options: RunOptions = {}): Promise<ForestResult> {
    return runTopology<ForestResult>(this, { task }, options, async (context) => {
      const decision = await this.route(task, context.signal ? { signal: context.signal } : {});
      return this.#execute(task, decision, context, agentOptions(options));
    });
  }

  /**
   * Runs many tasks, at most `maxWorkers` at a time, routing them all with one embedding call.
   * Returns settled results in task order: one failing task never loses the others' answers. The
   * forest's and the batch's guardrails check each task and its answer on their own: a task they
   * stop is rejected with `GuardrailTripwireError`, and the others go on.
   */
  async batchedRun(
    tasks: readonly string[],
    options: BatchedRunOptions = {},
  ): Promise<Settled<ForestResult>[]> {
    const { maxWorkers = Math.max(1, tasks.length), ...runOptions } = options;
    if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
      throw new ConfigError(
        `ForestSwarm.batchedRun: maxWorkers must be an integer >= 1 (got ${maxWorkers}).`,
      );
    }
    const perTask = agentOptions(runOptions);
    return runTopologyBatch<ForestResult>(
      this,
      tasks,
      { ...runOptions, concurrency: maxWorkers },
      async (context) => {
        const decisions = await this.routeAll(tasks, context.signal ? { signal: context.signal } : {});
        return (task, i, taskContext) => {
          const decision = decisions[i]!;
          if (decision.status === 'rejected') {
            taskContext.emit({ type: 'forest.no_route', task, error: errorMessage(decision.reason) });
            return Promise.reject(decision.reason);
          }
          return this.#execute(task, decision.value, taskContext, perTask);
        };
      },
    );
  }

  async #execute(
    task: string,
    decision: RouteDecision,
    context: RunContext,
    options: RunOptions,
  ): Promise<ForestResult> {
    context.emit({ type: 'forest.route', agent: decision.agent, decision });
    const agent = this.#agentOf(decision);
    const tree = this.#treeOf.get(agent);
    // As in the seed, a verbose forest makes every tree verbose and a verbose tree every agent; the
    // lines go to the logger of the most general verbose level.
    const logging = this.verbose
      ? { verbose: true, logger: this.#logger }
      : tree?.verbose
        ? { verbose: true, logger: tree.logger }
        : {};
    const ran = await agent.runTask(task, { ...options, context, ...logging });
    const logs: ForestLogs = { agentInput: ran.agentInput, agentOutput: ran.agentOutput };
    if (tree) {
      logs.tree = tree.logTreeExecution(task, agent, ran.output, logging);
      context.emit({ type: 'forest.tree_log', agent: agent.name, log: logs.tree });
    }
    this.conversation.add('user', task);
    this.conversation.add('assistant', ran.output, agent.name);
    if (this.conversationPath) await this.#saveConversation(this.conversationPath);
    const { usage, llmCalls, replayedCalls, liveCalls } = ran;
    return { output: ran.output, decision, logs, usage, llmCalls, replayedCalls, liveCalls };
  }

  // Saves one after another, each writing the conversation as it is then: concurrent tasks of a
  // batch would otherwise race their renames, and an older snapshot could land last.
  #saveConversation(path: string): Promise<void> {
    const saving = this.#saving.catch(() => {}).then(() => this.conversation.save(path));
    this.#saving = saving;
    return saving;
  }

  #checkTask(task: unknown): void {
    if (typeof task !== 'string' || task.trim() === '') {
      throw new ConfigError(
        `ForestSwarm "${this.name}": a task must be a non-empty string (got ${JSON.stringify(task)}).`,
      );
    }
  }

  #settings(): RouterSettings {
    return {
      strategy: this.routing,
      threshold: this.threshold,
      keywordWeight: this.keywordWeight,
      senseCheck: this.senseCheck,
    };
  }

  // Turns the router's outcome into a decision: the chosen agent, else the fallback, else NoRouteError.
  #decision(outcome: RouterOutcome<TreeAgent>): RouteDecision {
    const base = {
      task: outcome.task,
      calibration: this.threshold === 'auto' ? ('reference' as const) : ('explicit' as const),
    };
    let decision: RouteDecision;
    if (outcome.chosen) {
      decision = {
        ...base,
        strategy: this.routing,
        rule: outcome.chosen.rule,
        ...outcome.chosen.candidate,
        ...(outcome.runnerUp && { runnerUp: outcome.runnerUp }),
      };
    } else if (this.fallback) {
      const tree = this.#treeOf.get(this.fallback);
      // The fallback is not scored: its numbers are zero, and the runner-up is the closest agent.
      decision = {
        ...base,
        strategy: 'fallback',
        rule: 'fallback',
        ...(tree && { tree: tree.name }),
        agent: this.fallback.name,
        score: 0,
        similarity: 0,
        threshold: 0,
        keywordMatches: [],
        keywordScore: 0,
        ...(outcome.runnerUp && { runnerUp: outcome.runnerUp }),
      };
    } else {
      const best = outcome.runnerUp;
      throw new NoRouteError(
        outcome.task,
        `No agent of forest "${this.name}" is relevant to the task ${JSON.stringify(preview(outcome.task, 120))}` +
          (best
            ? `: the closest, ${best.agent}, has similarity ${best.similarity} (its threshold ${best.threshold}) and no topical keyword in the task.`
            : '.'),
      );
    }
    if (this.verbose) {
      const runnerUp = decision.runnerUp
        ? `; runner-up ${decision.runnerUp.agent} ${decision.runnerUp.score}`
        : '';
      this.#logger(
        `[forest] ${preview(decision.task, 60)} -> ${decision.tree ?? '(no tree)'} / ${decision.agent} ` +
          `(${decision.strategy}, score ${decision.score}, ${decision.rule}, keywords [${decision.keywordMatches.join(', ')}]${runnerUp})`,
      );
    }
    return decision;
  }

  #agentOf(decision: RouteDecision): TreeAgent {
    if (decision.strategy === 'fallback' && this.fallback) return this.fallback;
    for (const [agent] of this.#treeOf) if (agent.name === decision.agent) return agent;
    throw new NoRouteError(decision.task, `The forest has no agent named "${decision.agent}".`);
  }
}

// The run's guardrails hold for the whole run (each task of a batch), not again for the agent it goes to.
function agentOptions(options: RunOptions): RunOptions {
  const { inputGuardrails: _input, outputGuardrails: _output, ...rest } = options;
  return rest;
}
