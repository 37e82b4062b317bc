import { type Embedder, englishStopWords, localEmbedder } from '@swarm/embeddings';
import { genericWords } from './generic-words.js';
import { stem } from './stem.js';

/** Stop words and every form of the generic words ("helps", "provides", "specializing"). */
export const routingStopWords: ReadonlySet<string> = new (class RoutingStopWords extends Set<string> {
  override has(word: string): boolean {
    return englishStopWords.has(word) || genericWords.has(stem(word));
  }
})();

/**
 * The forest's default embedder: the local embedder, leaving out generic words as well as stop
 * words, so that a task sharing only "helps individuals" or "deep" with a prompt is not similar to
 * it. Offline and deterministic.
 */
export function forestLocalEmbedder(): Embedder {
  return localEmbedder({ stopWords: routingStopWords });
}
