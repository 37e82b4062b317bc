import { AbortError, ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.js';
import { localEmbedder } from './local-embedder.js';
import { lookUp, sentenceVector, wordVectorEmbedder } from './word-vector-embedder.js';
import { loadWordVectors, parseWordVectors } from './word-vectors.js';
import { encodeWordVectors } from './word-vectors-fixture.js';

const norm = (v: Float32Array) => Math.hypot(...v);

describe('wordVectorEmbedder', () => {
  it('scores texts with the same meaning in different words above unrelated texts', async () => {
    const texts = [
      'I want to buy a new car.',
      'Shopping for an automobile.',
      'How do I bake sourdough bread?',
    ];
    const [car, automobile, bread] = await wordVectorEmbedder().embed(texts);
    // No word in common: the local embedder sees nothing, the word vectors see the meaning.
    const [lexicalCar, lexicalAutomobile] = await localEmbedder().embed(texts.slice(0, 2));
    expect(cosineSimilarity(lexicalCar!, lexicalAutomobile!)).toBeLessThan(0.05);
    expect(cosineSimilarity(car!, automobile!)).toBeGreaterThan(cosineSimilarity(car!, bread!) + 0.15);
  });

  it('tells two senses of one word apart by the rest of the sentence', async () => {
    const [trainer, dog, runner] = await wordVectorEmbedder({ lexicalWeight: 0 }).embed([
      'I train dogs: obedience, leash walking and puppy behaviour.',
      'How do I train my puppy to stop biting?',
      'How do I train for a marathon run?',
    ]);
    expect(cosineSimilarity(trainer!, dog!)).toBeGreaterThan(cosineSimilarity(trainer!, runner!) + 0.1);
  });

  it('gives the same vectors on every call and instance, one per text in order, whatever the batch', async () => {
    const texts = ['Delaware corporate taxes', 'a dripping kitchen faucet', 'Roth IRA conversion'];
    const batch = await wordVectorEmbedder().embed(texts);
    const single = await Promise.all(texts.map(async (t) => (await wordVectorEmbedder().embed([t]))[0]!));
    expect(batch.map((v) => Array.from(v))).toEqual(single.map((v) => Array.from(v)));
    expect(batch).toHaveLength(3);
  });

  it('concatenates the word part and the lexical part, L2-normalized, with the mix as the cosine weights', async () => {
    const texts = ['My toilet keeps running.', 'The toilet flush is broken.'];
    const [a, b] = await wordVectorEmbedder({ lexicalWeight: 0.3 }).embed(texts);
    expect(a).toHaveLength(100 + 2048);
    expect(norm(a!)).toBeCloseTo(1, 5);
    const [wa, wb] = await wordVectorEmbedder({ lexicalWeight: 0 }).embed(texts);
    const [la, lb] = await localEmbedder().embed(texts);
    expect(wa).toHaveLength(100);
    expect(cosineSimilarity(a!, b!)).toBeCloseTo(
      0.7 * cosineSimilarity(wa!, wb!) + 0.3 * cosineSimilarity(la!, lb!),
      5,
    );
  });

  it('gives a text of stop words or punctuation only the zero vector, as the local embedder does', async () => {
    const [empty, stop, words] = await wordVectorEmbedder().embed(['', 'I am a, the; of: it!', 'garden']);
    for (const v of [empty!, stop!]) expect(Array.from(v).every((x) => x === 0)).toBe(true);
    expect(cosineSimilarity(stop!, words!)).toBe(0);
  });

  it('keeps words it does not know through the lexical part, and drops them without it', async () => {
    const [hybrid] = await wordVectorEmbedder().embed(['qwzxv blorft']);
    const [wordsOnly] = await wordVectorEmbedder({ lexicalWeight: 0 }).embed(['qwzxv blorft']);
    expect(norm(hybrid!)).toBeCloseTo(1, 5);
    expect(Array.from(hybrid!.subarray(0, 100)).every((x) => x === 0)).toBe(true);
    expect(Array.from(wordsOnly!).every((x) => x === 0)).toBe(true);
  });

  it('rejects an aborted call with AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(wordVectorEmbedder().embed(['task'], { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortError,
    );
  });

  it('rejects lexicalWeight and smoothing outside their range, naming the option', () => {
    expect(() => wordVectorEmbedder({ lexicalWeight: 1.5 })).toThrow(ConfigError);
    expect(() => wordVectorEmbedder({ lexicalWeight: Number.NaN })).toThrow(
      /lexicalWeight must be a number from 0 to 1/,
    );
    expect(() => wordVectorEmbedder({ smoothing: 0 })).toThrow(/smoothing must be a number from 1e-6 to 1/);
  });
});

describe('sentenceVector', () => {
  // Four words, most frequent first: "the" has the highest probability, "zebra" the lowest.
  const vectors = parseWordVectors(
    encodeWordVectors({ the: [0, 127], run: [127, 0], garden: [0, -127], zebra: [-127, 0] }),
  );

  it('weighs each known word by a / (a + p(word)), p from its frequency rank, and normalizes', () => {
    const p = (rank: number) => 1 / ((rank + 1) * (Math.log(400_000) + 0.5772));
    const a = 1e-3;
    const w = (rank: number) => a / (a + p(rank));
    // "run" [1, 0] and "garden" [0, -1], weighed by ranks 1 and 2.
    const expected = [w(1), -w(2)].map((x) => x / Math.hypot(w(1), w(2)));
    const vector = sentenceVector(vectors, 'Running garden', { stopWords: new Set() });
    expect(Array.from(vector)).toEqual(expected.map((x) => expect.closeTo(x, 6)));
  });

  it('leaves out stop words and unknown words, and gives the zero vector when nothing is left', () => {
    expect(Array.from(sentenceVector(vectors, 'the garden'))).toEqual([0, -1]);
    expect(Array.from(sentenceVector(vectors, 'the unknown'))).toEqual([0, 0]);
  });

  it('looks a word up without its plural or verb ending when the list lacks the form', () => {
    expect(lookUp(vectors, 'gardens')).toBe('garden');
    expect(lookUp(vectors, 'running')).toBe('run');
    expect(lookUp(vectors, 'zebras')).toBe('zebra');
    expect(lookUp(vectors, 'gardening')).toBe('garden');
    expect(lookUp(vectors, 'gardenx')).toBeUndefined();
  });

  it('tries -ies as -y and a dropped final e, and leaves out -ss words and words under four letters', () => {
    const forms = parseWordVectors(
      encodeWordVectors({ party: [1, 0], prune: [0, 1], mos: [1, 1], ha: [1, -1], bake: [-1, 1] }),
    );
    expect(lookUp(forms, 'parties')).toBe('party');
    expect(lookUp(forms, 'pruning')).toBe('prune');
    expect(lookUp(forms, 'baked')).toBe('bake');
    // "moss" is not the plural of "mos", nor "has" of "ha".
    expect(lookUp(forms, 'moss')).toBeUndefined();
    expect(lookUp(forms, 'has')).toBeUndefined();
  });
});

describe('wordVectorEmbedder and sentenceVector', () => {
  it('gives, without the lexical part, the sentence vector of the packaged vectors with the same smoothing', async () => {
    const vectors = await loadWordVectors();
    const text = 'Pruning the roses in a small garden';
    const [byDefault] = await wordVectorEmbedder({ lexicalWeight: 0 }).embed([text]);
    expect(Array.from(byDefault!)).toEqual(Array.from(sentenceVector(vectors, text, { smoothing: 1e-3 })));
    const [smoothed] = await wordVectorEmbedder({ lexicalWeight: 0, smoothing: 0.5 }).embed([text]);
    expect(Array.from(smoothed!)).toEqual(Array.from(sentenceVector(vectors, text, { smoothing: 0.5 })));
    expect(Array.from(smoothed!)).not.toEqual(Array.from(byDefault!));
  });
});
