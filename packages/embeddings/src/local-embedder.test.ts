import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.js';
import { localEmbedder, stemWord } from './local-embedder.js';

describe('localEmbedder', () => {
  it('gives the same text the same vector on every call and every instance', async () => {
    const [a] = await localEmbedder().embed(['Retirement planning for small businesses']);
    const [b] = await localEmbedder().embed(['Retirement planning for small businesses']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('gives a fixed text the same vector as recorded, so it cannot depend on the machine or the run', async () => {
    // "tax" twice (1 + ln 2), "fil" once, two word pairs at 0.6; signed hashing flips one of them.
    const [vector] = await localEmbedder({ dimensions: 16, charNgrams: false }).embed(['Tax filing, taxes']);
    const expected = [0, 0, 0, 0.7906, 0, 0, 0, 0, 0, 0.4669, 0, -0.2802, 0, 0, 0, 0.2802];
    for (const [i, x] of expected.entries()) expect(vector![i]).toBeCloseTo(x, 4);
  });

  it('returns L2-normalized vectors of the configured length', async () => {
    const [vector] = await localEmbedder({ dimensions: 512 }).embed(['Delaware corporate taxes']);
    expect(vector).toHaveLength(512);
    const norm = Math.sqrt(vector!.reduce((sum, x) => sum + x * x, 0));
    expect(norm).toBeCloseTo(1, 5);
  });

  it('scores texts about the same topic above texts about different topics', async () => {
    const [tax, taxQuestion, fitness] = await localEmbedder().embed([
      'I am a tax expert: corporate taxation, tax filing and deductions.',
      'How do I file taxes for my corporation?',
      'Build a weekly running and strength training plan.',
    ]);
    expect(cosineSimilarity(tax!, taxQuestion!)).toBeGreaterThan(cosineSimilarity(tax!, fitness!) + 0.1);
  });

  it('ignores stop words and punctuation, so they add no similarity', async () => {
    const [a, b] = await localEmbedder().embed(['I am a, the; of: it!', 'what is this about?']);
    expect(Array.from(a!).every((x) => x === 0)).toBe(true);
    expect(cosineSimilarity(a!, b!)).toBe(0);
  });

  it('matches inflected forms through stems and character n-grams', async () => {
    const [a, b] = await localEmbedder().embed(['investing', 'investments']);
    expect(cosineSimilarity(a!, b!)).toBeGreaterThan(0.5);
    expect(stemWord('taxes')).toBe('tax');
    expect(stemWord('planning')).toBe('plan');
  });

  it('embeds 1,000 texts in one call without any network', async () => {
    const texts = Array.from({ length: 1000 }, (_, i) => `task number ${i} about portfolio risk`);
    const vectors = await localEmbedder().embed(texts);
    expect(vectors).toHaveLength(1000);
  });

  it('rejects dimensions and n-gram ranges outside the accepted range', () => {
    expect(() => localEmbedder({ dimensions: 8 })).toThrow(ConfigError);
    expect(() => localEmbedder({ dimensions: 8 })).toThrow(/dimensions must be an integer from 16 to 65536/);
    expect(() => localEmbedder({ charNgrams: [5, 3] })).toThrow(/charNgrams/);
  });
});
