import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.js';

describe('cosineSimilarity', () => {
  it('is 1 for the same direction and 0 for orthogonal vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
    expect(cosineSimilarity(new Float32Array([1, 0]), new Float32Array([0, 1]))).toBe(0);
  });

  it('returns 0 when either vector has zero norm', () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBe(0);
  });

  it('throws a ConfigError when the lengths differ', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(ConfigError);
  });
});
