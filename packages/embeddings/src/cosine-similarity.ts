import { ConfigError } from '@swarm/core';

/**
 * Cosine of the angle between two vectors: 1 for the same direction, 0 for unrelated. Returns 0
 * when either vector has zero norm (as the seed does), and throws on a length mismatch, which
 * always means vectors from two different embedders.
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new ConfigError(
      `cosineSimilarity: the vectors must have the same length (got ${a.length} and ${b.length}).`,
    );
  }
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}
