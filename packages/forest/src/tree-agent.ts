import {
  Agent,
  type AgentRunOptions,
  booleanOption,
  ConfigError,
  type Message,
  type ModelLike,
  nonEmptyAnswer,
  RunContext,
  type Tool,
  type Usage,
} from '@swarm/core';
import {
  type CachedEmbedder,
  cachedEmbedder,
  cosineSimilarity,
  type Embedder,
  tokenize,
} from '@swarm/embeddings';
import { AgentRouter } from './agent-router.js';
import { forestLocalEmbedder } from './default-embedder.js';
import { extractKeywords } from './extract-keywords.js';
import {
  type AgentLogInput,
  type AgentLogOutput,
  consoleLogger,
  type ForestLogger,
  newLogId,
  preview,
} from './logs.js';
import { stem } from './stem.js';

/**
 * The default `threshold`: calibrate each agent's similarity threshold on reference texts with the
 * embedder in use, so that routing holds with any embedder (see the README, "How routing works").
 */
export const DEFAULT_THRESHOLD = 'auto';

/** The score a matched keyword adds per unit of specificity, shared by a forest, a tree and an agent. */
export const DEFAULT_KEYWORD_WEIGHT = 0.3;

/** Options of a TreeAgent: either a ready core `agent`, or the fields to build one. */
export interface TreeAgentOptions {
  /** A ready agent to wrap; its `instructions` are the system prompt unless `systemPrompt` is given. */
  agent?: Agent<unknown>;
  name?: string;
  /** What the agent is expert in: it is the agent's instructions and what routing compares tasks with. */
  systemPrompt?: string;
  model?: ModelLike;
  /** One line about the agent, embedded together with the system prompt. */
  description?: string;
  /**
   * Words that make the agent relevant when the task has them, compared by stem as whole words
   * ("taxes" matches "tax", "taxi" does not). Given keywords always count (generic words too), but
   * one given keyword alone still needs the forest's sense check (see `senseCheck`); by default they are every
   * word of the description and system prompt except stop words, and generic words among those
   * ("helps", "expert", "deep knowledge") never count.
   */
  keywords?: string[];
  tools?: Tool[];
  temperature?: number;
  maxTokens?: number;
  maxTurns?: number;
  /** Used by `calculateDistance` and `isRelevantForTask` (default: the local embedder, cached). */
  embedder?: Embedder;
  /** Log each task's input and output records (default false). */
  verbose?: boolean;
  logger?: ForestLogger;
}

/** Per-run options of `runTask`. */
export interface TreeAgentRunOptions extends AgentRunOptions {
  /** Overrides the agent's own `verbose` for this run. */
  verbose?: boolean;
  logger?: ForestLogger;
}

/** What `runTask` returns: the agent's answer with the seed's input and output records. */
export interface TreeAgentResult {
  output: string;
  /** The new turns of the run (assistant turns, tool calls and results). */
  messages: Message[];
  usage: Usage;
  llmCalls: number;
  /** Of `llmCalls`, how many were answered from the run's journal. */
  replayedCalls: number;
  /** Of `llmCalls`, how many went to the model. */
  liveCalls: number;
  agentInput: AgentLogInput;
  agentOutput: AgentLogOutput;
}

/**
 * A specialist agent with a system prompt that says what it is good at. Routing compares tasks with
 * that prompt; nothing is embedded when the agent is built, only when relevance is first asked.
 */
export class TreeAgent {
  readonly name: string;
  readonly systemPrompt: string;
  readonly description: string | undefined;
  /** Lower-cased single-token keywords, most frequent first, matched against the task's words by stem. */
  readonly keywords: readonly string[];
  /** True when `keywords` were given, false when they were extracted from the prompt. */
  readonly keywordsGiven: boolean;
  /** The core agent that runs tasks. */
  readonly agent: Agent<unknown>;
  readonly verbose: boolean;
  readonly #logger: ForestLogger;
  readonly #embedderOption: Embedder | undefined;
  #embedder: CachedEmbedder | undefined;
  #router: AgentRouter<TreeAgent> | undefined;

  constructor(options: TreeAgentOptions) {
    const systemPrompt = options.systemPrompt ?? options.agent?.instructions;
    const name = options.agent?.name ?? options.name;
    if (typeof name !== 'string' || name.trim() === '') {
      throw new ConfigError('TreeAgent: name must be a non-empty string (or pass agent).');
    }
    if (typeof systemPrompt !== 'string' || systemPrompt.trim() === '') {
      throw new ConfigError(
        `TreeAgent "${name}": systemPrompt must be a non-empty string; it is what tasks are routed by.`,
      );
    }
    if (options.keywords !== undefined && !Array.isArray(options.keywords)) {
      throw new ConfigError(`TreeAgent "${name}": keywords must be an array of strings.`);
    }
    if (!options.agent && options.model === undefined) {
      throw new ConfigError(`TreeAgent "${name}": model is required when no agent is given.`);
    }
    this.name = name;
    this.systemPrompt = systemPrompt;
    this.description = options.description ?? options.agent?.description;
    this.keywordsGiven = options.keywords !== undefined;
    this.keywords = options.keywords
      ? [...new Set(options.keywords.flatMap((keyword) => tokenize(keyword)))]
      : extractKeywords(this.description ? `${this.description}\n${systemPrompt}` : systemPrompt, {
          topN: Number.POSITIVE_INFINITY,
        });
    this.agent =
      options.agent ??
      new Agent({
        name,
        instructions: systemPrompt,
        model: options.model!,
        ...(this.description !== undefined && { description: this.description }),
        ...(options.tools && { tools: options.tools }),
        ...(options.temperature !== undefined && { temperature: options.temperature }),
        ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
        ...(options.maxTurns !== undefined && { maxTurns: options.maxTurns }),
      });
    this.verbose = options.verbose ?? false;
    this.#logger = options.logger ?? consoleLogger;
    this.#embedderOption = options.embedder;
  }

  /** The text routing embeds for this agent: its description, if any, and its system prompt. */
  get routingText(): string {
    return this.description ? `${this.description}\n${this.systemPrompt}` : this.systemPrompt;
  }

  /** Embedding distance to another agent, `1 - cosineSimilarity` of their prompts: 0 is identical. */
  async calculateDistance(other: TreeAgent, options: { signal?: AbortSignal } = {}): Promise<number> {
    const [mine, theirs] = await this.#embed([this.routingText, other.routingText], options.signal);
    return 1 - cosineSimilarity(mine!, theirs!);
  }

  /**
   * Whether the agent, on its own, would take the task: one of its keywords is in the task (generic
   * words aside), or the task's similarity to its prompt reaches `threshold` (default `'auto'`:
   * calibrated on reference texts, see the README). Embeds the prompt once, then each task.
   * `senseCheck` (default true) is the forest's: one shared word must be used in the prompt's sense.
   */
  async isRelevantForTask(
    task: string,
    threshold: number | 'auto' = DEFAULT_THRESHOLD,
    options: { signal?: AbortSignal; senseCheck?: boolean } = {},
  ): Promise<boolean> {
    const owner = `TreeAgent "${this.name}"`;
    checkThreshold(owner, threshold);
    const senseCheck = booleanOption(owner, 'senseCheck', options.senseCheck, true);
    this.#router ??= new AgentRouter([{ agent: this }], this.#embedderInstance());
    const [outcome] = await this.#router.route(
      [task],
      { strategy: 'first', threshold, keywordWeight: DEFAULT_KEYWORD_WEIGHT, senseCheck },
      options.signal,
    );
    return outcome?.chosen !== undefined;
  }

  /** The agent's keywords that appear in the task as whole words, compared by stem (never as substrings). */
  keywordMatches(task: string): string[] {
    const stems = new Set(tokenize(task).map(stem));
    return this.keywords.filter((keyword) => stems.has(stem(keyword)));
  }

  /**
   * Runs the task with the agent and returns its answer with the input and output log records,
   * which are also emitted as `forest.agent_input` / `forest.agent_output` events.
   */
  async runTask(task: string, options: TreeAgentRunOptions = {}): Promise<TreeAgentResult> {
    const { verbose = this.verbose, logger = this.#logger, ...runOptions } = options;
    const context = RunContext.from(runOptions);
    const agentInput: AgentLogInput = {
      logId: newLogId(),
      agentName: this.name,
      task,
      timestamp: new Date().toISOString(),
    };
    context.emit({ type: 'forest.agent_input', agent: this.name, log: agentInput });
    if (verbose) logger(`[forest] ${this.name} starts: ${preview(task)}`);
    const result = await nonEmptyAnswer(this.name, context, () =>
      this.agent.run(task, { ...runOptions, context }),
    );
    const agentOutput: AgentLogOutput = {
      logId: newLogId(),
      agentName: this.name,
      result: result.output,
      timestamp: new Date().toISOString(),
    };
    context.emit({ type: 'forest.agent_output', agent: this.name, log: agentOutput });
    if (verbose) logger(`[forest] ${this.name} answered: ${preview(result.output)}`);
    return {
      output: result.output,
      messages: result.messages,
      usage: result.usage,
      llmCalls: result.llmCalls,
      replayedCalls: result.replayedCalls,
      liveCalls: result.liveCalls,
      agentInput,
      agentOutput,
    };
  }

  #embed(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    return this.#embedderInstance().embed(texts, signal ? { signal } : {});
  }

  #embedderInstance(): CachedEmbedder {
    this.#embedder ??= cachedEmbedder(this.#embedderOption ?? forestLocalEmbedder());
    return this.#embedder;
  }
}

/** Throws a ConfigError unless `threshold` is `'auto'` or a number from -1 to 1. */
export function checkThreshold(owner: string, threshold: unknown): void {
  if (threshold === 'auto') return;
  if (typeof threshold !== 'number' || !(threshold >= -1 && threshold <= 1)) {
    throw new ConfigError(
      `${owner}: threshold must be a number from -1 to 1, or 'auto' (got ${JSON.stringify(threshold)}).`,
    );
  }
}
