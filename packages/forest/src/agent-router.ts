import { ModelError, throwIfAborted } from '@swarm/core';
import { type CachedEmbedder, VectorIndex } from '@swarm/embeddings';
import { referenceTexts } from './reference-texts.js';
import type { RouteCandidate, RouteRule, RoutingStrategy } from './route-decision.js';
import { TermIndex } from './term-index.js';
import type { TreeAgent } from './tree-agent.js';

/** One routable agent and the tree it belongs to. */
export interface RouterEntry {
  tree?: string;
  agent: TreeAgent;
}

/** How the router scores and accepts candidates. */
export interface RouterSettings {
  strategy: RoutingStrategy;
  /** A similarity every agent needs, or `'auto'`: each agent's own, calibrated on reference texts. */
  threshold: number | 'auto';
  keywordWeight: number;
}

/** The outcome of routing one task: the chosen entry (if any agent was relevant) and the evidence. */
export interface RouterOutcome {
  task: string;
  chosen?: { entry: RouterEntry; candidate: RouteCandidate; rule: Exclude<RouteRule, 'fallback'> };
  /** The best-scoring agent other than the chosen one (the best of all when none was chosen). */
  runnerUp?: RouteCandidate;
}

/**
 * Per agent, what unrelated text looks like with this embedder: the mean similarity of the
 * reference texts to the agent's prompt (its baseline) and the similarity a task needs to count as
 * related (the highest reference similarity plus a margin of `CALIBRATION_MARGIN` standard
 * deviations of all reference similarities).
 */
export interface Calibration {
  baselines: Float32Array;
  thresholds: Float32Array;
  /** The reference texts' vectors: a task closer to one of them than to an agent is not that agent's. */
  references: VectorIndex;
}

/** Standard deviations of the reference similarities a task must clear above the closest reference. */
export const CALIBRATION_MARGIN = 2;

interface Prepared {
  index: VectorIndex;
  terms: TermIndex;
  calibration?: Calibration;
}

/**
 * The routing engine behind `ForestSwarm`, `Tree` and `TreeAgent.isRelevantForTask`. Agent prompts
 * (with the reference texts, when thresholds are calibrated) are embedded lazily, all in one call,
 * the first time a task is routed; tasks are embedded once per call of `route`, all in one batch.
 * Scoring is one sparse matrix product plus an inverted keyword index.
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
    const calibrate = settings.threshold === 'auto';
    const prepared = await this.#prepared(signal, calibrate);
    if (calibrate && !prepared.calibration) {
      // Built for an explicit threshold first: only the reference texts are embedded now.
      prepared.calibration = this.#calibrate(prepared.index, await this.#embed([...referenceTexts], signal));
    }
    const vectors = await this.#embed([...tasks], signal);
    return tasks.map((task, i) => this.#decide(task, vectors[i]!, prepared, settings));
  }

  /** Each agent's prompt vector, in entry order (embedded once, in one call). */
  async vectors(signal?: AbortSignal): Promise<Float32Array[]> {
    const { index } = await this.#prepared(signal, false);
    return this.entries.map((_, i) => index.vector(i));
  }

  // The shared build runs under the signal of the caller that started it; when another caller's
  // signal cancels it, this caller (not aborted itself) starts the build again.
  async #prepared(signal: AbortSignal | undefined, calibrate: boolean): Promise<Prepared> {
    for (;;) {
      const build = this.#prepare(signal, calibrate);
      try {
        return await build.prepared;
      } catch (error) {
        if (signal?.aborted || build.signal === signal || !build.signal?.aborted) throw error;
      }
    }
  }

  #prepare(
    signal: AbortSignal | undefined,
    calibrate: boolean,
  ): { prepared: Promise<Prepared>; signal: AbortSignal | undefined } {
    if (!this.#build) {
      const build = { prepared: this.#buildIndex(signal, calibrate), signal };
      this.#build = build;
      // A failed build is not remembered: the next route tries again and reports its own error.
      build.prepared.catch(() => {
        if (this.#build === build) this.#build = undefined;
      });
    }
    return this.#build;
  }

  async #buildIndex(signal: AbortSignal | undefined, calibrate: boolean): Promise<Prepared> {
    const prompts = this.entries.map((e) => e.agent.routingText);
    const vectors = await this.#embed(calibrate ? [...prompts, ...referenceTexts] : prompts, signal);
    const dimensions = vectors[0]?.length ?? 1;
    const index = new VectorIndex(dimensions, { capacity: Math.max(1, prompts.length) });
    for (const vector of vectors) {
      if (vector.length !== dimensions) {
        throw new ModelError(`${this.embedder.id}: returned vectors of different lengths.`, {
          provider: this.embedder.id,
        });
      }
    }
    for (const vector of vectors.slice(0, prompts.length)) index.add(vector);
    const terms = new TermIndex(
      this.entries.map(({ agent }) => ({
        keywords: agent.keywords,
        given: agent.keywordsGiven,
        text: agent.routingText,
      })),
    );
    return {
      index,
      terms,
      ...(calibrate && { calibration: this.#calibrate(index, vectors.slice(prompts.length)) }),
    };
  }

  #calibrate(index: VectorIndex, references: Float32Array[]): Calibration {
    const n = this.entries.length;
    const sums = new Float64Array(n);
    const maxima = new Float32Array(n).fill(Number.NEGATIVE_INFINITY);
    let total = 0;
    let totalSquares = 0;
    for (const reference of references) {
      const scores = index.scores(reference);
      for (let i = 0; i < n; i++) {
        const s = scores[i]!;
        sums[i]! += s;
        if (s > maxima[i]!) maxima[i] = s;
        total += s;
        totalSquares += s * s;
      }
    }
    const count = n * references.length;
    const mean = total / count;
    const deviation = Math.sqrt(Math.max(0, totalSquares / count - mean * mean));
    const baselines = new Float32Array(n);
    const thresholds = new Float32Array(n);
    const referenceIndex = new VectorIndex(index.dimensions, { capacity: Math.max(1, references.length) });
    referenceIndex.addAll(references);
    for (let i = 0; i < n; i++) {
      baselines[i] = sums[i]! / references.length;
      thresholds[i] = Math.min(1, maxima[i]! + CALIBRATION_MARGIN * deviation);
    }
    return { baselines, thresholds, references: referenceIndex };
  }

  async #embed(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    return this.embedder.embed(texts, signal ? { signal } : {});
  }

  #decide(task: string, vector: Float32Array, prepared: Prepared, settings: RouterSettings): RouterOutcome {
    const { index, terms } = prepared;
    const calibration = settings.threshold === 'auto' ? prepared.calibration : undefined;
    const similarities = index.scores(vector);
    const matches = terms.match(task);
    // Similarity above the agent's baseline, as a share of what is left up to 1, so that one
    // keyword weight means the same with an embedder whose unrelated texts score 0 or 0.8.
    const scores = new Float32Array(similarities.length);
    const baselines = calibration?.baselines;
    for (let i = 0; i < scores.length; i++) {
      const base = baselines ? baselines[i]! : 0;
      scores[i] = (similarities[i]! - base) / (1 - base);
    }
    for (const [i, match] of matches) scores[i]! += settings.keywordWeight * match.score;
    // With calibrated thresholds, the reference texts stand for "none of the agents": a task as close
    // to one of them as to an agent is not that agent's by similarity.
    let nearestReference = Number.NEGATIVE_INFINITY;
    if (calibration)
      for (const s of calibration.references.scores(vector)) nearestReference = Math.max(nearestReference, s);
    const fixed = typeof settings.threshold === 'number' ? settings.threshold : 0;
    const thresholds = calibration?.thresholds;
    const bySimilarity = (i: number) =>
      similarities[i]! >= (thresholds ? thresholds[i]! : fixed) && similarities[i]! > nearestReference;
    const byKeyword = (i: number) => matches.get(i)?.relevant === true;
    const relevant = (i: number) => bySimilarity(i) || byKeyword(i);
    const candidate = (i: number): RouteCandidate => {
      const entry = this.entries[i]!;
      const match = matches.get(i);
      return {
        ...(entry.tree !== undefined && { tree: entry.tree }),
        agent: entry.agent.name,
        score: round(scores[i]!),
        similarity: round(similarities[i]!),
        threshold: round(thresholds ? thresholds[i]! : fixed),
        keywordMatches: match?.keywords ?? [],
        keywordScore: round(match?.score ?? 0),
      };
    };

    // One pass: the chosen agent, and the two best scores overall for the runner-up.
    let chosen = -1;
    let best = -1;
    let next = -1;
    const first = settings.strategy === 'first';
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (best === -1 || score > scores[best]!) {
        next = best;
        best = i;
      } else if (next === -1 || score > scores[next]!) {
        next = i;
      }
      if (first ? chosen === -1 && relevant(i) : (chosen === -1 || score > scores[chosen]!) && relevant(i)) {
        chosen = i;
      }
    }
    const second = chosen === best ? next : best;
    if (chosen === -1) return { task, ...(second !== -1 && { runnerUp: candidate(second) }) };
    const rule: Exclude<RouteRule, 'fallback'> = byKeyword(chosen)
      ? bySimilarity(chosen)
        ? 'keyword+similarity'
        : 'keyword'
      : 'similarity';
    return {
      task,
      chosen: { entry: this.entries[chosen]!, candidate: candidate(chosen), rule },
      ...(second !== -1 && { runnerUp: candidate(second) }),
    };
  }
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
