import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeWordVectors } from './word-vectors-fixture.js';

const reads = vi.hoisted(() => ({ count: 0, failNext: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...fs,
    readFile: (async (...args: Parameters<typeof fs.readFile>) => {
      if (String(args[0]).endsWith('word-vectors.bin')) {
        reads.count++;
        if (reads.failNext) {
          reads.failNext = false;
          throw Object.assign(new Error('EIO: simulated read failure'), { code: 'EIO' });
        }
      }
      return fs.readFile(...args);
    }) as typeof fs.readFile,
  };
});

afterEach(() => {
  reads.count = 0;
  reads.failNext = false;
  vi.resetModules();
});

describe('loadWordVectors', () => {
  it('reads nothing at import, then reads the data file once however often it is called', async () => {
    const embeddings = await import('./index.js');
    const embedder = embeddings.wordVectorEmbedder();
    expect(reads.count).toBe(0);
    const [a, b] = await Promise.all([embeddings.loadWordVectors(), embeddings.loadWordVectors()]);
    await embedder.embed(['one more call']);
    expect(reads.count).toBe(1);
    expect(a).toBe(b);
  });

  it('holds 40,000 frequent lower-case words of 100 unit-length dimensions, most frequent first', async () => {
    const { loadWordVectors } = await import('./word-vectors.js');
    const vectors = await loadWordVectors();
    expect([vectors.size, vectors.dimensions]).toEqual([40_000, 100]);
    expect(vectors.rank('the')).toBe(0);
    expect(vectors.word(0)).toBe('the');
    expect(vectors.rank('The')).toBeUndefined();
    expect(vectors.vector('qwzxv')).toBeUndefined();
    const dog = vectors.vector('dog')!;
    expect(Math.hypot(...dog)).toBeCloseTo(1, 5);
  });

  it('does not remember a failed read: the next call reads again', async () => {
    const { loadWordVectors } = await import('./word-vectors.js');
    reads.failNext = true;
    await expect(loadWordVectors()).rejects.toThrow(/simulated read failure/);
    await expect(loadWordVectors()).resolves.toMatchObject({ size: 40_000 });
    expect(reads.count).toBe(2);
  });
});

describe('parseWordVectors', () => {
  it('decodes words, ranks and normalized rows', async () => {
    const { parseWordVectors } = await import('./word-vectors.js');
    const vectors = parseWordVectors(encodeWordVectors({ cat: [3, 4], dog: [-127, 0] }));
    expect([vectors.size, vectors.dimensions, vectors.rank('dog'), vectors.word(1)]).toEqual([
      2,
      2,
      1,
      'dog',
    ]);
    expect(Array.from(vectors.vector('cat')!)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(vectors.vector('dog')!)).toEqual([-1, 0]);
  });

  it('rejects a file that is not a word-vector file, or is cut short, with a ConfigError', async () => {
    // Imported after vi.resetModules, as the module under test is: the same class.
    const { ConfigError } = await import('@swarm/core');
    const { parseWordVectors } = await import('./word-vectors.js');
    const bytes = encodeWordVectors({ cat: [3, 4] });
    const wrong = bytes.slice();
    wrong[0] = 0x58;
    expect(() => parseWordVectors(wrong)).toThrow(ConfigError);
    expect(() => parseWordVectors(wrong)).toThrow(/not a SWV1 file/);
    expect(() => parseWordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated or corrupt/);
  });
});
