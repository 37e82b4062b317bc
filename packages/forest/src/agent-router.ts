import { ModelError, throwIfAborted } from '@swarm/core';
import { type CachedEmbedder, tokenize, VectorIndex } from '@swarm/embeddings';
import type { RouteCandidate, RoutingStrategy } from './route-decision.js';
import type { TreeAgent } from './tree-agent.js';

/** One routable agent and the tree it belongs to. */
export interface RouterEntry {
  tree?: string;
  agent: TreeAgent;
}

/** How the router scores and accepts candidates. */
export interface RouterSettings {
  strategy: RoutingStrategy;
  threshold: number;
  keywordWeight: number;
}

/** The outcome of routing one task: the chosen entry (if any agent was relevant) and the evidence. */
export interface RouterOutcome {
  task: string;
  chosen?: { entry: RouterEntry; candidate: RouteCandidate };
  /** The best-scoring agent other than the chosen one (the best of all when none was chosen). */
  runnerUp?: RouteCandidate;
}

interface Prepared {
  index: VectorIndex;
  /** keyword -> positions of the agents that have it */
  keywords: Map<string, number[]>;
}

/**
 * The routing engine behind `ForestSwarm` and `Tree`. Agent prompts are embedded lazily, all in one
 * call, the first time a task is routed; tasks are embedded once per call of `route`, all in one
 * batch. Scoring is one sparse matrix product plus an inverted keyword index, so its cost does not
 * grow with a per-agent loop over strings.
 */
export class AgentRouter {
  readonly entries: readonly RouterEntry[];
  readonly embedder: CachedEmbedder;
  #build: { prepared: Promise<Prepared>; signal: AbortSignal | undefined } | undefined;

  constructor(entries: readonly RouterEntry[], embedder: CachedEmbedder) {
    this.entries = entries;
    this.embedder = embedder;
  }

  /** Routes every task with one embedding call for all of them. */
  async route(
    tasks: readonly string[],
    settings: RouterSettings,
    signal?: AbortSignal,
  ): Promise<RouterOutcome[]> {
    throwIfAborted(signal);
    const prepared = await this.#prepared(signal);
    const vectors = await this.#embed([...tasks], signal);
    return tasks.map((task, i) => this.#decide(task, vectors[i]!, prepared, settings));
  }

  /** Each agent's prompt vector, in entry order (embedded once, in one call). */
  async vectors(signal?: AbortSignal): Promise<Float32Array[]> {
    const { index } = await this.#prepared(signal);
    return this.entries.map((_, i) => index.vector(i));
  }

  // The shared build runs under the signal of the caller that started it; when another caller's
  // signal cancels it, this caller (not aborted itself) starts the build again.
  async #prepared(signal: AbortSignal | undefined): Promise<Prepared> {
    for (;;) {
      const build = this.#prepare(signal);
      try {
        return await build.prepared;
      } catch (error) {
        if (signal?.aborted || build.signal === signal || !build.signal?.aborted) throw error;
      }
    }
  }

  #prepare(signal: AbortSignal | undefined): {
    prepared: Promise<Prepared>;
    signal: AbortSignal | undefined;
  } {
    if (!this.#build) {
      const build = { prepared: this.#buildIndex(signal), signal };
      this.#build = build;
      // A failed build is not remembered: the next route tries again and reports its own error.
      build.prepared.catch(() => {
        if (this.#build === build) this.#build = undefined;
      });
    }
    return this.#build;
  }

  async #buildIndex(signal: AbortSignal | undefined): Promise<Prepared> {
    const vectors = await this.#embed(
      this.entries.map((e) => e.agent.routingText),
      signal,
    );
    const dimensions = vectors[0]?.length ?? 1;
    const index = new VectorIndex(dimensions, { capacity: Math.max(1, vectors.length) });
    for (const vector of vectors) {
      if (vector.length !== dimensions) {
        throw new ModelError(`${this.embedder.id}: returned vectors of different lengths.`, {
          provider: this.embedder.id,
        });
      }
      index.add(vector);
    }
    const keywords = new Map<string, number[]>();
    this.entries.forEach((entry, position) => {
      for (const keyword of entry.agent.keywords) {
        const holders = keywords.get(keyword);
        if (holders) holders.push(position);
        else keywords.set(keyword, [position]);
      }
    });
    return { index, keywords };
  }

  async #embed(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    return this.embedder.embed(texts, signal ? { signal } : {});
  }

  #decide(task: string, vector: Float32Array, prepared: Prepared, settings: RouterSettings): RouterOutcome {
    const { index, keywords } = prepared;
    const similarities = index.scores(vector);
    const scores = Float32Array.from(similarities);
    const matches = new Map<number, string[]>();
    for (const token of new Set(tokenize(task))) {
      for (const position of keywords.get(token) ?? []) {
        const found = matches.get(position);
        if (found) found.push(token);
        else matches.set(position, [token]);
        scores[position]! += settings.keywordWeight;
      }
    }
    const relevant = (i: number) => matches.has(i) || similarities[i]! >= settings.threshold;
    const candidate = (i: number): RouteCandidate => {
      const entry = this.entries[i]!;
      return {
        ...(entry.tree !== undefined && { tree: entry.tree }),
        agent: entry.agent.name,
        score: round(scores[i]!),
        similarity: round(similarities[i]!),
        keywordMatches: matches.get(i) ?? [],
      };
    };

    let chosen = -1;
    if (settings.strategy === 'first') {
      for (let i = 0; i < scores.length && chosen === -1; i++) if (relevant(i)) chosen = i;
    } else {
      for (let i = 0; i < scores.length; i++) {
        if (relevant(i) && (chosen === -1 || scores[i]! > scores[chosen]!)) chosen = i;
      }
    }
    let second = -1;
    for (let i = 0; i < scores.length; i++) {
      if (i !== chosen && (second === -1 || scores[i]! > scores[second]!)) second = i;
    }
    return {
      task,
      ...(chosen !== -1 && { chosen: { entry: this.entries[chosen]!, candidate: candidate(chosen) } }),
      ...(second !== -1 && { runnerUp: candidate(second) }),
    };
  }
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
