import { booleanOption, ConfigError } from '@swarm/core';
import { cachedEmbedder, cosineSimilarity, type Embedder } from '@swarm/embeddings';
import { AgentRouter } from './agent-router.js';
import { forestLocalEmbedder } from './default-embedder.js';
import { consoleLogger, type ForestLogger, newLogId, preview, type TreeLog } from './logs.js';
import type { RoutingStrategy } from './route-decision.js';
import { checkThreshold, DEFAULT_KEYWORD_WEIGHT, DEFAULT_THRESHOLD, TreeAgent } from './tree-agent.js';

/** Options of a Tree. */
export interface TreeOptions {
  /** The domain of the tree, e.g. "Financial Services Tree"; unique within a forest. */
  name: string;
  /** The tree's agents in priority order: with `routing: 'first'` the earlier agent wins. */
  agents: TreeAgent[];
  /** Used when the tree routes on its own (default: the local embedder); a forest uses its own. */
  embedder?: Embedder;
  /** Log each execution's TreeLog (default false). */
  verbose?: boolean;
  logger?: ForestLogger;
}

/** How far one agent of a tree is from the others, by prompt embedding. */
export interface AgentDistance {
  agent: string;
  /** `1 - cosine` to the tree's centroid: small for a generalist of the tree, large for an outlier. */
  centroidDistance: number;
  /** The closest other agent of the tree and its distance; absent in a one-agent tree. */
  nearest?: { agent: string; distance: number };
}

/** Options of `findRelevantAgent`. */
export interface FindRelevantAgentOptions {
  routing?: RoutingStrategy;
  /** A similarity every agent needs without a keyword, or `'auto'` (default): calibrated per agent. */
  threshold?: number | 'auto';
  /** Score added per unit of matched keyword specificity (default 0.3). */
  keywordWeight?: number;
  /** Whether one-word keyword evidence must agree in sense (default true; see `ForestSwarmOptions.senseCheck`). */
  senseCheck?: boolean;
  signal?: AbortSignal;
}

/**
 * A domain of specialist agents. The agents keep the order they were given, and that order is
 * their priority (the seed instead sorted them by each one's distance to whichever agent preceded
 * it, which meant nothing); `calculateAgentDistances` measures how the agents relate instead.
 */
export class Tree {
  readonly name: string;
  readonly agents: readonly TreeAgent[];
  readonly verbose: boolean;
  /** Where this tree's verbose lines go; a verbose tree also sends its agents' records here. */
  readonly logger: ForestLogger;
  readonly #embedder: Embedder | undefined;
  #router: AgentRouter<TreeAgent> | undefined;

  constructor(options: TreeOptions) {
    if (typeof options?.name !== 'string' || options.name.trim() === '') {
      throw new ConfigError('Tree: name must be a non-empty string.');
    }
    if (!Array.isArray(options.agents) || options.agents.length === 0) {
      throw new ConfigError(`Tree "${options.name}": agents must be a non-empty array of TreeAgent.`);
    }
    const names = new Set<string>();
    for (const agent of options.agents) {
      if (!(agent instanceof TreeAgent)) {
        throw new ConfigError(`Tree "${options.name}": agents must be TreeAgent instances.`);
      }
      if (names.has(agent.name)) {
        throw new ConfigError(
          `Tree "${options.name}": two agents are named "${agent.name}"; names must be unique.`,
        );
      }
      names.add(agent.name);
    }
    this.name = options.name;
    this.agents = [...options.agents];
    this.verbose = options.verbose ?? false;
    this.logger = options.logger ?? consoleLogger;
    this.#embedder = options.embedder;
  }

  /**
   * The agent of this tree for the task: the best-scoring relevant one (default), or the first
   * relevant one in priority order with `routing: 'first'`; undefined when none is relevant.
   */
  async findRelevantAgent(
    task: string,
    options: FindRelevantAgentOptions = {},
  ): Promise<TreeAgent | undefined> {
    const owner = `Tree "${this.name}"`;
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    checkThreshold(owner, threshold);
    const senseCheck = booleanOption(owner, 'senseCheck', options.senseCheck, true);
    const [outcome] = await this.#routerInstance().route(
      [task],
      {
        strategy: options.routing ?? 'best',
        threshold,
        keywordWeight: options.keywordWeight ?? DEFAULT_KEYWORD_WEIGHT,
        senseCheck,
      },
      options.signal,
    );
    return outcome?.chosen?.entry.agent;
  }

  /** Each agent's distance to the tree's centroid and to its nearest neighbour, in agent order. */
  async calculateAgentDistances(options: { signal?: AbortSignal } = {}): Promise<AgentDistance[]> {
    const vectors = await this.#routerInstance().vectors(options.signal);
    const dimensions = vectors[0]?.length ?? 0;
    const centroid = new Float32Array(dimensions);
    for (const vector of vectors)
      for (let d = 0; d < dimensions; d++) centroid[d] = centroid[d]! + vector[d]!;
    return this.agents.map((agent, i) => {
      let nearest: AgentDistance['nearest'];
      this.agents.forEach((other, j) => {
        if (i === j) return;
        const distance = 1 - cosineSimilarity(vectors[i]!, vectors[j]!);
        if (!nearest || distance < nearest.distance) nearest = { agent: other.name, distance };
      });
      return {
        agent: agent.name,
        centroidDistance: 1 - cosineSimilarity(vectors[i]!, centroid),
        ...(nearest && { nearest }),
      };
    });
  }

  /**
   * Builds the TreeLog of one execution, and logs it when the tree is verbose (or when `options`
   * says so: a verbose forest logs every tree's records through its own logger).
   */
  logTreeExecution(
    task: string,
    selectedAgent: TreeAgent,
    result: string,
    options: { verbose?: boolean; logger?: ForestLogger } = {},
  ): TreeLog {
    const { verbose = this.verbose, logger = this.logger } = options;
    const log: TreeLog = {
      logId: newLogId(),
      treeName: this.name,
      task,
      selectedAgent: selectedAgent.name,
      timestamp: new Date().toISOString(),
      result,
    };
    if (verbose) logger(`[forest] ${this.name} / ${selectedAgent.name} ran: ${preview(task)}`);
    return log;
  }

  #routerInstance(): AgentRouter<TreeAgent> {
    this.#router ??= new AgentRouter(
      this.agents.map((agent) => ({ tree: this.name, agent })),
      cachedEmbedder(this.#embedder ?? forestLocalEmbedder()),
    );
    return this.#router;
  }
}
