import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { localEmbedder } from './local-embedder.js';
import { topK, VectorIndex } from './vector-index.js';

function bruteForce(rows: number[][], query: number[]): number[] {
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return rows.map((row) => row.reduce((s, x, i) => s + x * query[i]!, 0) / (norm(row) * norm(query)));
}

describe('VectorIndex', () => {
  it('finds the exact top-k by cosine similarity over dense vectors', () => {
    const rows = [
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
      [0, 1, 0, 0],
      [0.5, 0.5, 0.5, 0.5],
    ];
    const index = new VectorIndex(4, { capacity: 1 });
    index.addAll(rows);
    const query = [1, 0.2, 0, 0];
    const expected = bruteForce(rows, query);
    const hits = index.search(query, 2);
    expect(hits.map((h) => h.index)).toEqual([1, 0]);
    expect(hits[0]!.score).toBeCloseTo(expected[1]!, 5);
    const scores = index.scores(query);
    for (const [i, score] of expected.entries()) expect(scores[i]).toBeCloseTo(score, 5);
  });

  it('scores sparse vectors through postings with the same results as a full dot product', async () => {
    const texts = [
      'tax filing',
      'stock market',
      'retirement savings',
      'kubernetes cluster',
      'tax deductions',
    ];
    const vectors = await localEmbedder({ dimensions: 4096 }).embed(texts);
    const index = new VectorIndex(4096);
    index.addAll(vectors);
    const [query] = await localEmbedder({ dimensions: 4096 }).embed(['how do I file my tax return']);
    const expected = bruteForce(
      vectors.map((v) => Array.from(v)),
      Array.from(query!),
    );
    const scores = index.scores(query!);
    for (const [i, score] of expected.entries()) expect(scores[i]).toBeCloseTo(score, 5);
    expect(index.search(query!, 1)[0]!.index).toBe(0);
  });

  it('keeps insertion order for ties and returns views of normalized rows', () => {
    const index = new VectorIndex(2);
    index.add([3, 4]);
    index.add([6, 8]);
    expect(index.search([3, 4], 2).map((h) => h.index)).toEqual([0, 1]);
    expect(Array.from(index.vector(0))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it('rejects vectors of the wrong length and a bad k', () => {
    const index = new VectorIndex(3);
    expect(() => index.add([1, 2])).toThrow(ConfigError);
    expect(() => index.search([1, 2, 3], 0)).toThrow(/k must be an integer >= 1/);
  });
});

describe('topK', () => {
  it('returns the k best scores, best first', () => {
    expect(topK([0.1, 0.9, 0.5, 0.9], 3)).toEqual([
      { index: 1, score: 0.9 },
      { index: 3, score: 0.9 },
      { index: 2, score: 0.5 },
    ]);
  });
});
