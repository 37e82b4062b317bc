import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeWordVectors } from './word-vectors-fixture.js';

// Counts (and can hold back or fail) the reads of the data file. The loader reads through Node's
// own fs module (process.getBuiltinModule, which no bundler follows), so the spy sits on it.
const fs = process.getBuiltinModule('node:fs/promises');
const realReadFile = fs.readFile;
const reads = { count: 0, failNext: false, gate: undefined as Promise<void> | undefined };
beforeAll(() => {
  vi.spyOn(fs, 'readFile').mockImplementation((async (...args: Parameters<typeof realReadFile>) => {
    if (String(args[0]).endsWith('word-vectors.bin')) {
      reads.count++;
      if (reads.gate) await reads.gate;
      if (reads.failNext) {
        reads.failNext = false;
        throw Object.assign(new Error('EIO: simulated read failure'), { code: 'EIO' });
      }
    }
    return realReadFile(...args);
  }) as typeof realReadFile);
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** Holds every read of the data file back until the returned function is called. */
function holdReads(): () => void {
  let release!: () => void;
  reads.gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return release;
}

afterEach(() => {
  reads.count = 0;
  reads.failNext = false;
  reads.gate = undefined;
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** Runs `work` as in a runtime with no file system (a browser): node:fs/promises cannot be had. */
async function withoutFileSystem<T>(work: () => Promise<T>): Promise<T> {
  const original = process.getBuiltinModule;
  const load = vi
    .spyOn(process, 'getBuiltinModule')
    .mockImplementation(((id: string) =>
      id === 'node:fs/promises' ? undefined : original(id)) as typeof original);
  try {
    return await work();
  } finally {
    load.mockRestore();
  }
}

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
    const { ConfigError } = await import('@swarm/core');
    const { loadWordVectors } = await import('./word-vectors.js');
    reads.failNext = true;
    const failure = await loadWordVectors().catch((error: unknown) => error);
    // A typed error naming the file, with the read error as its cause.
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(/word-vectors\.bin \(EIO: simulated read failure\)/);
    expect((failure as Error).cause).toMatchObject({ code: 'EIO' });
    await expect(loadWordVectors()).resolves.toMatchObject({ size: 40_000 });
    expect(reads.count).toBe(2);
  });
  it('rejects an aborted call with AbortError while the file is read, and the read goes on for others', async () => {
    const { AbortError } = await import('@swarm/core');
    const { loadWordVectors } = await import('./word-vectors.js');
    const release = holdReads();
    const controller = new AbortController();
    const other = loadWordVectors();
    const aborted = loadWordVectors({ signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    // Settles before the read is released: the abort does not wait for the file.
    expect(await aborted).toBeInstanceOf(AbortError);
    release();
    await expect(other).resolves.toMatchObject({ size: 40_000 });
    await expect(loadWordVectors({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(reads.count).toBe(1);
  });

  it('rejects an embed call aborted while the word vectors load', async () => {
    const { AbortError } = await import('@swarm/core');
    const { wordVectorEmbedder } = await import('./word-vector-embedder.js');
    const release = holdReads();
    const controller = new AbortController();
    const embedding = wordVectorEmbedder()
      .embed(['a task'], { signal: controller.signal })
      .catch((error: unknown) => error);
    await vi.waitFor(() => expect(reads.count).toBe(1));
    controller.abort();
    expect(await embedding).toBeInstanceOf(AbortError);
    release();
  });
});

describe('loadWordVectors where there is no file system', () => {
  it('fetches the data file from its address beside the code, as a browser gets it from the bundle', async () => {
    const { loadWordVectors } = await import('./word-vectors.js');
    const path = new URL('../data/word-vectors.bin', import.meta.url);
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: URL | string) => {
      fetched.push(String(url));
      return new Response(new Uint8Array(await realReadFile(path)));
    });
    const vectors = await withoutFileSystem(() => loadWordVectors());
    expect(fetched).toEqual([path.href]);
    expect(reads.count).toBe(0);
    expect([vectors.size, vectors.rank('the')]).toEqual([40_000, 0]);
  });

  it('rejects with a ConfigError naming the address and the HTTP status when the file is not served', async () => {
    const { ConfigError } = await import('@swarm/core');
    const { loadWordVectors } = await import('./word-vectors.js');
    vi.stubGlobal('fetch', async () => new Response('not here', { status: 404, statusText: 'Not Found' }));
    const failure = await withoutFileSystem(() => loadWordVectors()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(
      /^word vectors: cannot fetch file:\/\/.*\/data\/word-vectors\.bin \(HTTP 404 Not Found\); serve node_modules\/@swarm\/embeddings\/data\/word-vectors\.bin at that address\.$/,
    );
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
    expect(() => parseWordVectors(new Uint8Array([...bytes, 0]))).toThrow(/truncated or corrupt/);
    expect(() => parseWordVectors(bytes.subarray(0, 15))).toThrow(/not a SWV1 file/);
    // The source given names the bytes in the message.
    expect(() => parseWordVectors(wrong, 'my-vectors.bin')).toThrow(
      'word vectors: my-vectors.bin is not a SWV1 file.',
    );
  });

  it('rejects a header of no word or no dimension, a word list of the wrong length, and a word listed twice', async () => {
    const { ConfigError } = await import('@swarm/core');
    const { parseWordVectors } = await import('./word-vectors.js');
    const header = (count: number, dimensions: number, list: string, rows: number) => {
      const words = new TextEncoder().encode(list);
      const bytes = new Uint8Array(16 + words.length + rows);
      const view = new DataView(bytes.buffer);
      bytes.set(new TextEncoder().encode('SWV1'), 0);
      view.setUint32(4, count, true);
      view.setUint32(8, dimensions, true);
      view.setUint32(12, words.length, true);
      bytes.set(words, 16);
      return bytes;
    };
    expect(parseWordVectors(header(1, 1, 'cat', 1)).size).toBe(1);
    expect(() => parseWordVectors(header(1, 0, 'cat', 0))).toThrow(/truncated or corrupt/);
    expect(() => parseWordVectors(header(0, 2, '', 0))).toThrow(/truncated or corrupt/);
    expect(() => parseWordVectors(header(2, 1, 'cat', 2))).toThrow(/lists 1 words, expected 2/);
    expect(() => parseWordVectors(header(2, 1, 'cat\ncat', 2))).toThrow(ConfigError);
    expect(() => parseWordVectors(header(2, 1, 'cat\ncat', 2))).toThrow(/lists a word twice/);
  });
});
