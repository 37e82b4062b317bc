import { ConfigError } from '@swarm/core';
import { englishStopWords, tokenize } from '@swarm/embeddings';

/** Options of `extractKeywords`. */
export interface ExtractKeywordsOptions {
  /** Most keywords to return (default 5; `Infinity` for all). */
  topN?: number;
  /** Keep stop words such as "i", "a", "the" (default false: they match almost every task). */
  keepStopWords?: boolean;
}

/**
 * The most frequent words of a prompt, most frequent first (ties in order of first appearance).
 * Punctuation is stripped rather than dropping the word ("planning," counts as "planning"), and
 * stop words are left out, so "I am a tax expert" yields `tax`, `expert`, never `i` or `a`.
 */
export function extractKeywords(prompt: string, options: ExtractKeywordsOptions = {}): string[] {
  const topN = options.topN ?? 5;
  if (!(Number.isInteger(topN) || topN === Number.POSITIVE_INFINITY) || topN < 0) {
    throw new ConfigError(`extractKeywords: topN must be an integer >= 0 or Infinity (got ${topN}).`);
  }
  const counts = new Map<string, number>();
  for (const word of tokenize(prompt)) {
    if (!options.keepStopWords && englishStopWords.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  // Map iteration follows first appearance and the sort is stable, so ties keep prompt order.
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([word]) => word);
}
