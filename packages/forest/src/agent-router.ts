import { ConfigError, errorMessage, isAbort, ModelError, throwIfAborted } from '@swarm/core';
import {
  type CachedEmbedder,
  cosineSimilarity,
  loadWordVectors,
  lookUp,
  sentenceVector,
  tokenize,
  VectorIndex,
  type WordVectors,
} from '@swarm/embeddings';
import { routingStopWords } from './default-embedder.js';
import { referenceTexts } from './reference-texts.js';
import type { RouteCandidate, RouteRule, RoutingStrategy } from './route-decision.js';
import { stem } from './stem.js';
import { TermIndex, type TermMatch } from './term-index.js';

/** What the router reads of an agent (a `TreeAgent` is one): its name, prompt text and keywords. */
export interface RoutableAgent {
  readonly name: string;
  /** The text its embedding and sense check are made from. */
  readonly routingText: string;
  readonly keywords: readonly string[];
  /** Whether the keywords were given (not extracted from the prompt). */
  readonly keywordsGiven: boolean;
}

/** One routable agent and the tree it belongs to. */
export interface RouterEntry<A extends RoutableAgent = RoutableAgent> {
  tree?: string;
  agent: A;
}

/** How the router scores and accepts candidates. */
export interface RouterSettings {
  strategy: RoutingStrategy;
  /** A similarity every agent needs, or `'auto'`: each agent's own, calibrated on reference texts. */
  threshold: number | 'auto';
  keywordWeight: number;
  /** Whether a keyword match of one word needs the sense check (word vectors; see `SenseCheck`). */
  senseCheck: boolean;
}

/** The outcome of routing one task: the chosen entry (if any agent was relevant) and the evidence. */
export interface RouterOutcome<A extends RoutableAgent = RoutableAgent> {
  task: string;
  chosen?: { entry: RouterEntry<A>; candidate: RouteCandidate; rule: Exclude<RouteRule, 'fallback'> };
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

/**
 * The sense check, independent of the embedder: the packaged word vectors (`@swarm/embeddings`)
 * give each agent's prompt a sentence vector. A task whose keyword evidence for an agent is one
 * word must be closer to the prompt, in that space, than the reference texts are on average with
 * that same word added: the word must be used in the prompt's sense ("train" a dog, not for a 10k
 * run), else it counts as a weak word. Thresholds are cached per agent and word.
 */
export interface SenseCheck {
  words: WordVectors;
  agents: VectorIndex;
  thresholds: Map<string, number>;
}

/** Most (agent, word) sense thresholds kept; the cache starts over beyond it. */
const SENSE_CACHE_SIZE = 10_000;

interface Prepared {
  index: VectorIndex;
  calibration?: Calibration;
}

/**
 * The routing engine behind `ForestSwarm`, `Tree` and `TreeAgent.isRelevantForTask`. Agent prompts
 * (with the reference texts, when thresholds are calibrated) are embedded lazily, all in one call,
 * the first time a task is routed; tasks are embedded once per call of `route`, all in one batch
 * (with the remainders that context agreement compares: each task without its weak shared words).
 * Scoring is one sparse matrix product plus an inverted keyword index.
 */
export class AgentRouter<A extends RoutableAgent = RoutableAgent> {
  readonly entries: readonly RouterEntry<A>[];
  readonly embedder: CachedEmbedder;
  #build: { prepared: Promise<Prepared>; signal: AbortSignal | undefined } | undefined;
  #sense: SenseCheck | undefined;
  #termIndex: TermIndex | undefined;

  constructor(entries: readonly RouterEntry<A>[], embedder: CachedEmbedder) {
    this.entries = entries;
    this.embedder = embedder;
  }

  /** Routes every task with one embedding call for all of them. */
  async route(
    tasks: readonly string[],
    settings: RouterSettings,
    signal?: AbortSignal,
  ): Promise<RouterOutcome<A>[]> {
    throwIfAborted(signal);
    const calibrate = settings.threshold === 'auto';
    // Context agreement: an agent relevant by similarity alone, while the words it shares with the
    // task were too weak for the keyword rule, must also be similar to the task without those words.
    // Those remainders are embedded in the same call as the tasks.
    const terms = this.#terms();
    const matches = tasks.map((task) => terms.match(task));
    // The tasks' embedding needs nothing of the agents' prompt vectors: on a first route both are
    // embedded at once, so routing takes one embedding call's time, not two.
    const [prepared, { senses, remainders, extra, vectors }] = await Promise.all([
      this.#prepared(signal, calibrate),
      this.#embedTasks(tasks, matches, settings, signal),
    ]);
    if (calibrate && !prepared.calibration) {
      // Built for an explicit threshold first: only the reference texts are embedded now.
      prepared.calibration = this.#calibrate(prepared.index, await this.#embed([...referenceTexts], signal));
    }
    throwIfAborted(signal);
    const byText = new Map(extra.map((text, j) => [text, vectors[tasks.length + j]!]));
    return tasks.map((task, k) =>
      this.#decide(
        { task, vector: vectors[k]!, matches: matches[k]!, remainders: remainders[k]!, senses: senses[k]! },
        byText,
        prepared,
        settings,
      ),
    );
  }

  // The sense check (it may make keyword evidence weak), then the tasks and the remainders of their
  // weak matches, embedded in one call.
  async #embedTasks(
    tasks: readonly string[],
    matches: readonly Map<number, TermMatch>[],
    settings: RouterSettings,
    signal: AbortSignal | undefined,
  ) {
    const senses = settings.senseCheck
      ? await this.#checkSense(tasks, matches, signal)
      : tasks.map(() => new Map<number, Sense>());
    throwIfAborted(signal);
    const remainders = tasks.map((task, k) => {
      const weak = new Map<number, string>();
      for (const [i, match] of matches[k]!)
        if (!match.relevant) weak.set(i, withoutWords(task, match.keywords));
      return weak;
    });
    const extra = [...new Set(remainders.flatMap((weak) => [...weak.values()]))].filter((t) => t !== '');
    const vectors = await this.#embed([...tasks, ...extra], signal);
    return { senses, remainders, extra, vectors };
  }

  /**
   * The sense check of one-word keyword evidence: for each task, the agents it ran for, with the
   * word-vector similarity and the threshold; a match below it becomes weak (not relevant), so the
   * word then only counts through similarity with context agreement.
   */
  async #checkSense(
    tasks: readonly string[],
    matches: readonly Map<number, TermMatch>[],
    signal: AbortSignal | undefined,
  ): Promise<Map<number, Sense>[]> {
    const applies = (match: TermMatch) => match.relevant && match.stems === 1 && !match.named;
    const needed = matches.some((m) => [...m.values()].some(applies));
    if (!needed) return tasks.map(() => new Map());
    const sense = await this.#senseCheck(signal);
    return tasks.map((task, k) => {
      const checked = new Map<number, Sense>();
      let vector: Float32Array | undefined;
      let tokens: string[] | undefined;
      for (const [i, match] of matches[k]!) {
        if (!applies(match)) continue;
        // The task's own forms of the shared word; a word without a vector cannot be checked.
        const stems = new Set(match.keywords.map(stem));
        tokens ??= tokenize(task);
        const shared = [...new Set(tokens.filter((t) => stems.has(stem(t))))];
        if (!shared.some((word) => lookUp(sense.words, word) !== undefined)) continue;
        vector ??= sentenceVector(sense.words, task, { stopWords: routingStopWords });
        const similarity = cosineSimilarity(vector, sense.agents.vector(i));
        const threshold = this.#senseThreshold(sense, i, shared.join(' '));
        checked.set(i, { similarity, threshold });
        if (similarity < threshold) match.relevant = false;
      }
      return checked;
    });
  }

  // What the shared word alone brings: the mean similarity to the agent of the reference texts
  // with the word added. A task that uses the word in the prompt's sense is closer than that.
  #senseThreshold(sense: SenseCheck, i: number, words: string): number {
    const key = `${i} ${words}`;
    let threshold = sense.thresholds.get(key);
    if (threshold === undefined) {
      let sum = 0;
      for (const text of referenceTexts) {
        const vector = sentenceVector(sense.words, `${text} ${words}`, { stopWords: routingStopWords });
        sum += cosineSimilarity(vector, sense.agents.vector(i));
      }
      threshold = sum / referenceTexts.length;
      if (sense.thresholds.size >= SENSE_CACHE_SIZE) sense.thresholds.clear();
      sense.thresholds.set(key, threshold);
    }
    return threshold;
  }

  // The word vectors load once per process (a failed load is retried by the next route); `signal`
  // stops this route's wait, not the load. The agents' sentence vectors are built once per router.
  async #senseCheck(signal: AbortSignal | undefined): Promise<SenseCheck> {
    let words: WordVectors;
    try {
      words = await loadWordVectors(signal ? { signal } : {});
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ConfigError(
        `The sense check needs the word vectors of @swarm/embeddings: ${errorMessage(error)} (senseCheck: false routes without them).`,
        { cause: error },
      );
    }
    if (!this.#sense) {
      const agents = new VectorIndex(words.dimensions, { capacity: Math.max(1, this.entries.length) });
      for (const { agent } of this.entries) {
        agents.add(sentenceVector(words, agent.routingText, { stopWords: routingStopWords }));
      }
      this.#sense = { words, agents, thresholds: new Map() };
    }
    return this.#sense;
  }

  // The agents' keywords, indexed once, on the first route (no embedding needed).
  #terms(): TermIndex {
    this.#termIndex ??= new TermIndex(
      this.entries.map(({ agent }) => ({
        keywords: agent.keywords,
        given: agent.keywordsGiven,
        text: agent.routingText,
      })),
    );
    return this.#termIndex;
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
    return {
      index,
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

  #decide(
    scored: Scored,
    remainderVectors: ReadonlyMap<string, Float32Array>,
    prepared: Prepared,
    settings: RouterSettings,
  ): RouterOutcome<A> {
    const { task, vector, matches, remainders, senses } = scored;
    const calibration = settings.threshold === 'auto' ? prepared.calibration : undefined;
    const similarities = prepared.index.scores(vector);
    const nearestReference = calibration ? nearest(calibration.references, vector) : Number.NEGATIVE_INFINITY;
    // Similarity above the agent's baseline, as a share of what is left up to 1, so that one
    // keyword weight means the same with an embedder whose unrelated texts score 0 or 0.8.
    const scores = new Float32Array(similarities.length);
    const baselines = calibration?.baselines;
    for (let i = 0; i < scores.length; i++) {
      const base = baselines ? baselines[i]! : 0;
      scores[i] = (similarities[i]! - base) / (1 - base);
    }
    for (const [i, match] of matches) scores[i]! += settings.keywordWeight * match.score;
    const fixed = typeof settings.threshold === 'number' ? settings.threshold : 0;
    const thresholds = calibration?.thresholds;
    const threshold = (i: number) => (thresholds ? thresholds[i]! : fixed);
    // With calibrated thresholds, the reference texts stand for "none of the agents": a task as close
    // to one of them as to an agent is not that agent's by similarity.
    const similar = (i: number, similarity: number, reference: number) =>
      similarity >= threshold(i) && similarity > reference;
    // The rest of the task (without the shared words) must pass the same test: otherwise the
    // similarity hinged on words the keyword rule found too weak ("ceiling" of the Sistine Chapel).
    const agrees = (i: number) => {
      const remainder = remainders.get(i);
      if (remainder === undefined) return true;
      const vector = remainderVectors.get(remainder);
      if (vector === undefined) return false; // nothing is left of the task
      const reference = calibration ? nearest(calibration.references, vector) : Number.NEGATIVE_INFINITY;
      return similar(i, cosineSimilarity(vector, prepared.index.vector(i)), reference);
    };
    const bySimilarity = (i: number) => similar(i, similarities[i]!, nearestReference) && agrees(i);
    const byKeyword = (i: number) => matches.get(i)?.relevant === true;
    const relevant = (i: number) => bySimilarity(i) || byKeyword(i);
    const candidate = (i: number): RouteCandidate => {
      const entry = this.entries[i]!;
      const match = matches.get(i);
      const sense = senses.get(i);
      return {
        ...(entry.tree !== undefined && { tree: entry.tree }),
        agent: entry.agent.name,
        score: round(scores[i]!),
        similarity: round(similarities[i]!),
        threshold: round(threshold(i)),
        keywordMatches: match?.keywords ?? [],
        keywordScore: round(match?.score ?? 0),
        ...(sense !== undefined && {
          sense: { similarity: round(sense.similarity), threshold: round(sense.threshold) },
        }),
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

interface Scored {
  task: string;
  vector: Float32Array;
  matches: Map<number, TermMatch>;
  /** Per agent the task shares only weak words with: the task without them ('' when nothing is left). */
  remainders: Map<number, string>;
  /** Per agent the sense check ran for: the task's word-vector similarity to it and the threshold. */
  senses: Map<number, Sense>;
}

interface Sense {
  similarity: number;
  threshold: number;
}

function nearest(references: VectorIndex, vector: Float32Array): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const s of references.scores(vector)) best = Math.max(best, s);
  return best;
}

/** The text without every word whose stem is one of the keywords' ('' when nothing else is left). */
export function withoutWords(text: string, keywords: readonly string[]): string {
  const stems = new Set(keywords.map(stem));
  const rest = text
    .replace(/[\p{L}\p{N}]+/gu, (word) => (stems.has(stem(word.toLowerCase())) ? '' : word))
    .replace(/\s+/g, ' ')
    .trim();
  return /[\p{L}\p{N}]/u.test(rest) ? rest : '';
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
