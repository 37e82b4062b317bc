import { ConfigError, fnv1a, throwIfAborted } from '@swarm/core';
import type { Embedder } from './embedder.js';
import { englishStopWords } from './stop-words.js';
import { tokenize } from './tokenize.js';

/** Options of `localEmbedder`. */
export interface LocalEmbedderOptions {
  /** Length of the vectors (default 2048, accepted 16 to 65536). More dimensions mean fewer hash collisions. */
  dimensions?: number;
  /** Smallest and largest character n-gram (default `[3, 5]`, accepted 1 to 8); `false` turns them off. */
  charNgrams?: readonly [number, number] | false;
  /** Words that carry no topic and are left out (default: `englishStopWords`). */
  stopWords?: ReadonlySet<string>;
}

// Relative weight of each feature kind: whole (stemmed) words say the most, word pairs a bit less,
// and the many character n-grams each a little, so that they catch inflections without drowning
// the words.
const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const CHAR_WEIGHT = 0.18;

/**
 * A deterministic, offline embedder: hashed word unigrams, word bigrams and character n-grams with
 * sublinear term frequency, stop words left out, L2-normalized. No download and no network, so
 * routing works on a fresh machine; same text, same vector, on every machine.
 */
export function localEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 2048;
  if (!Number.isInteger(dimensions) || dimensions < 16 || dimensions > 65536) {
    throw new ConfigError(
      `localEmbedder: dimensions must be an integer from 16 to 65536 (got ${dimensions}).`,
    );
  }
  const charNgrams = options.charNgrams ?? [3, 5];
  if (charNgrams !== false) {
    const [min, max] = charNgrams;
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max > 8 || min > max) {
      throw new ConfigError(
        `localEmbedder: charNgrams must be [min, max] integers with 1 <= min <= max <= 8 (got ${JSON.stringify(charNgrams)}).`,
      );
    }
  }
  const stopWords = options.stopWords ?? englishStopWords;
  const suffix = charNgrams === false ? '' : `:c${charNgrams[0]}-${charNgrams[1]}`;
  return {
    id: `local:${dimensions}${suffix}`,
    maxBatchSize: Number.POSITIVE_INFINITY,
    async embed(texts, embedOptions = {}) {
      throwIfAborted(embedOptions.signal);
      return texts.map((text) => embedText(text, dimensions, charNgrams, stopWords));
    },
  };
}

function embedText(
  text: string,
  dimensions: number,
  charNgrams: readonly [number, number] | false,
  stopWords: ReadonlySet<string>,
): Float32Array {
  const counts = new Map<string, number>();
  const count = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const words = tokenize(text).filter((word) => !stopWords.has(word));
  let previous: string | undefined;
  for (const word of words) {
    const stem = stemWord(word);
    count(`w ${stem}`);
    if (previous !== undefined) count(`b ${previous} ${stem}`);
    previous = stem;
    if (charNgrams !== false) {
      const padded = `<${word}>`;
      for (let n = charNgrams[0]; n <= charNgrams[1]; n++) {
        for (let i = 0; i + n <= padded.length; i++) count(`c ${padded.slice(i, i + n)}`);
      }
    }
  }

  const vector = new Float32Array(dimensions);
  for (const [feature, tf] of counts) {
    const kind = feature.charCodeAt(0);
    const weight = kind === 119 /* w */ ? WORD_WEIGHT : kind === 98 /* b */ ? BIGRAM_WEIGHT : CHAR_WEIGHT;
    const hash = fnv1a(feature);
    // The sign hash keeps collisions from only ever adding up (signed feature hashing).
    const sign = Math.imul(hash, 0x9e3779b1) >>> 31 === 0 ? 1 : -1;
    vector[hash % dimensions]! += sign * weight * (1 + Math.log(tf));
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  }
  return vector;
}

const suffixes = [
  'ations',
  'ation',
  'ments',
  'ment',
  'ings',
  'ing',
  'ies',
  'ied',
  'ers',
  'er',
  'ed',
  'es',
  'ly',
  's',
];

/** A deliberately small suffix stripper, so "taxes", "investing" and "planning" meet "tax", "invest" and "plan". */
export function stemWord(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  for (const suffix of suffixes) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    if (suffix === 's' && (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is'))) return word;
    let stem = word.slice(0, -suffix.length);
    if (suffix === 'ies' || suffix === 'ied') stem += 'y';
    const last = stem.at(-1);
    if (
      last !== undefined &&
      last === stem.at(-2) &&
      !'lsz'.includes(last) &&
      /[b-df-hj-np-tv-z]/.test(last)
    ) {
      stem = stem.slice(0, -1);
    }
    return stem;
  }
  return word;
}
