import { ConfigError } from '@swarm/core';
import type { Embedder } from './embedder.js';
import { type LocalEmbedderOptions, localEmbedder } from './local-embedder.js';
import { englishStopWords } from './stop-words.js';
import { tokenize } from './tokenize.js';
import { loadWordVectors, type WordVectors } from './word-vectors.js';

/** Options of `sentenceVector`. */
export interface SentenceVectorOptions {
  /** Words left out (default: `englishStopWords`). */
  stopWords?: ReadonlySet<string>;
  /** The SIF smoothing `a` of the word weight `a / (a + p(word))` (default 1e-3, accepted 1e-6 to 1). */
  smoothing?: number;
}

/** Options of `wordVectorEmbedder`. */
export interface WordVectorEmbedderOptions extends SentenceVectorOptions {
  /**
   * The share of the cosine given to the local (hashed lexical) embedder, from 0 to 1 (default
   * 0.5): the vector is `[sqrt(1 - w) * wordPart, sqrt(w) * lexicalPart]`, so two texts score
   * `(1 - w) * semantic cosine + w * lexical cosine` when both have known words. The lexical part
   * catches names and rare words the word list lacks; 0 leaves it out.
   */
  lexicalWeight?: number;
  /** Options of the lexical part (`localEmbedder`); its stop words default to `stopWords`. */
  lexical?: LocalEmbedderOptions;
}

// GloVe 6B's vocabulary is 400,000 words: under Zipf's law the word of rank r (from 0) has the
// probability 1 / ((r + 1) * H), with H the harmonic number of the vocabulary size.
const HARMONIC = Math.log(400_000) + 0.5772;

/**
 * The vector of a text from word vectors: the SIF-weighted mean (`a / (a + p(word))`, with `p`
 * from the word's frequency rank, so frequent words count little) of the unit vectors of its
 * known words, stop words left out, L2-normalized. A word not in the list is looked up without
 * a plural or verb ending ("groomers", "pruning"); a text with no known word gets the zero vector.
 */
export function sentenceVector(
  vectors: WordVectors,
  text: string,
  options: SentenceVectorOptions = {},
): Float32Array {
  const stopWords = options.stopWords ?? englishStopWords;
  const a = options.smoothing ?? 1e-3;
  const sum = new Float32Array(vectors.dimensions);
  for (const word of tokenize(text)) {
    if (stopWords.has(word)) continue;
    const known = lookUp(vectors, word);
    if (known === undefined) continue;
    const p = 1 / ((vectors.rank(known)! + 1) * HARMONIC);
    const weight = a / (a + p);
    const v = vectors.vector(known)!;
    for (let d = 0; d < sum.length; d++) sum[d]! += weight * v[d]!;
  }
  return normalize(sum);
}

/** The word, or the first of its base forms the list knows ("groomers" -> "groomer", "pruning" -> "prune"). */
export function lookUp(vectors: WordVectors, word: string): string | undefined {
  if (vectors.rank(word) !== undefined) return word;
  if (/\d/.test(word) || word.length < 4) return undefined;
  const forms: string[] = [];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1));
  for (const ending of ['ing', 'ed']) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const base = word.slice(0, -ending.length);
    forms.push(base, `${base}e`);
    if (base.at(-1) === base.at(-2)) forms.push(base.slice(0, -1));
  }
  return forms.find((form) => vectors.rank(form) !== undefined);
}

/**
 * An offline, deterministic embedder that knows word meaning: each text is the SIF-weighted mean
 * of English word vectors (GloVe 6B, shipped with this package, see the README), concatenated with
 * the local embedder's hashed words and n-grams (`lexicalWeight`), L2-normalized. "car" and
 * "automobile" are close to it, which the local embedder cannot see. The word vectors (about 4 MB)
 * are read at the first `embed` call, not at import; a call's `signal` rejects it with
 * `AbortError` even while they load.
 */
export function wordVectorEmbedder(options: WordVectorEmbedderOptions = {}): Embedder {
  const lexicalWeight = options.lexicalWeight ?? 0.5;
  if (!(lexicalWeight >= 0 && lexicalWeight <= 1)) {
    throw new ConfigError(
      `wordVectorEmbedder: lexicalWeight must be a number from 0 to 1 (got ${lexicalWeight}).`,
    );
  }
  const smoothing = options.smoothing ?? 1e-3;
  if (!(smoothing >= 1e-6 && smoothing <= 1)) {
    throw new ConfigError(
      `wordVectorEmbedder: smoothing must be a number from 1e-6 to 1 (got ${smoothing}).`,
    );
  }
  const stopWords = options.stopWords ?? englishStopWords;
  const lexical = lexicalWeight > 0 ? localEmbedder({ stopWords, ...options.lexical }) : undefined;
  const semanticScale = Math.sqrt(1 - lexicalWeight);
  const lexicalScale = Math.sqrt(lexicalWeight);
  return {
    id: `words:glove${lexical ? `+${lexical.id}@${lexicalWeight}` : ''}`,
    maxBatchSize: Number.POSITIVE_INFINITY,
    async embed(texts, embedOptions = {}) {
      const { signal } = embedOptions;
      const vectors = await loadWordVectors(signal ? { signal } : {});
      const lexicalVectors = lexical ? await lexical.embed(texts, embedOptions) : [];
      return texts.map((text, i) => {
        const semantic = sentenceVector(vectors, text, { stopWords, smoothing });
        if (!lexical) return semantic;
        const words = lexicalVectors[i]!;
        const out = new Float32Array(semantic.length + words.length);
        for (let d = 0; d < semantic.length; d++) out[d] = semanticScale * semantic[d]!;
        for (let d = 0; d < words.length; d++) out[semantic.length + d] = lexicalScale * words[d]!;
        return normalize(out);
      });
    },
  };
}

function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let d = 0; d < vector.length; d++) norm += vector[d]! * vector[d]!;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let d = 0; d < vector.length; d++) vector[d]! *= scale;
  }
  return vector;
}
