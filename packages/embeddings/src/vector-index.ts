import { ConfigError } from '@swarm/core';

/** One hit of a `VectorIndex` search: the row added at `index`, and its cosine similarity. */
export interface VectorMatch {
  index: number;
  score: number;
}

// Below this share of non-zero entries, scoring walks per-dimension postings instead of every row.
const SPARSE_DENSITY = 0.25;

/**
 * Exact nearest-neighbour search by cosine similarity over a matrix of L2-normalized rows. Exact,
 * not approximate: at routing sizes (thousands of agents) a dot product per row is fast enough,
 * and sparse vectors (the local embedder's) are scored through per-dimension postings.
 */
export class VectorIndex {
  readonly dimensions: number;
  #rows: Float32Array;
  #size = 0;
  #postings: { offsets: Uint32Array; rows: Uint32Array; values: Float32Array } | undefined;
  #postingsStale = true;

  constructor(dimensions: number, options: { capacity?: number } = {}) {
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new ConfigError(`VectorIndex: dimensions must be an integer >= 1 (got ${dimensions}).`);
    }
    const capacity = options.capacity ?? 16;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new ConfigError(`VectorIndex: capacity must be an integer >= 1 (got ${capacity}).`);
    }
    this.dimensions = dimensions;
    this.#rows = new Float32Array(capacity * dimensions);
  }

  /** How many vectors were added. */
  get size(): number {
    return this.#size;
  }

  /** Adds a vector (normalized on the way in) and returns its row index. */
  add(vector: ArrayLike<number>): number {
    this.#checkLength(vector, 'add');
    if ((this.#size + 1) * this.dimensions > this.#rows.length) {
      const grown = new Float32Array(Math.max(this.#rows.length * 2, (this.#size + 1) * this.dimensions));
      grown.set(this.#rows);
      this.#rows = grown;
    }
    this.#rows.set(normalized(vector), this.#size * this.dimensions);
    this.#postingsStale = true;
    return this.#size++;
  }

  /** Adds several vectors and returns the row index of the first. */
  addAll(vectors: readonly ArrayLike<number>[]): number {
    const first = this.#size;
    for (const vector of vectors) this.add(vector);
    return first;
  }

  /** The normalized row at `index` (a view, not a copy). */
  vector(index: number): Float32Array {
    if (!Number.isInteger(index) || index < 0 || index >= this.#size) {
      throw new ConfigError(
        `VectorIndex: index must be an integer from 0 to ${this.#size - 1} (got ${index}).`,
      );
    }
    return this.#rows.subarray(index * this.dimensions, (index + 1) * this.dimensions);
  }

  /** The cosine similarity of `query` with every row, in row order. */
  scores(query: ArrayLike<number>): Float32Array {
    this.#checkLength(query, 'scores');
    const q = normalized(query);
    const scores = new Float32Array(this.#size);
    const postings = this.#sparsePostings();
    if (postings) {
      const { offsets, rows, values } = postings;
      for (let d = 0; d < this.dimensions; d++) {
        const weight = q[d]!;
        if (weight === 0) continue;
        for (let p = offsets[d]!, end = offsets[d + 1]!; p < end; p++) {
          scores[rows[p]!]! += weight * values[p]!;
        }
      }
      return scores;
    }
    const rows = this.#rows;
    const dims = this.dimensions;
    for (let r = 0; r < this.#size; r++) {
      let dot = 0;
      const base = r * dims;
      for (let d = 0; d < dims; d++) dot += rows[base + d]! * q[d]!;
      scores[r] = dot;
    }
    return scores;
  }

  /** The `k` rows most similar to `query`, best first; ties go to the row added first. */
  search(query: ArrayLike<number>, k: number): VectorMatch[] {
    if (!Number.isInteger(k) || k < 1)
      throw new ConfigError(`VectorIndex.search: k must be an integer >= 1 (got ${k}).`);
    return topK(this.scores(query), k);
  }

  #checkLength(vector: ArrayLike<number>, method: string): void {
    if (vector.length !== this.dimensions) {
      throw new ConfigError(
        `VectorIndex.${method}: the vector has ${vector.length} dimensions; this index holds ${this.dimensions}.`,
      );
    }
  }

  // Column postings (for each dimension, the rows with a non-zero value there), built when the
  // matrix is sparse enough that walking them beats a full dot product per row.
  #sparsePostings() {
    if (!this.#postingsStale) return this.#postings;
    this.#postingsStale = false;
    this.#postings = undefined;
    const dims = this.dimensions;
    const total = this.#size * dims;
    const rows = this.#rows;
    const counts = new Uint32Array(dims + 1);
    let nonZero = 0;
    for (let i = 0; i < total; i++) {
      if (rows[i] !== 0) {
        counts[(i % dims) + 1]!++;
        nonZero++;
      }
    }
    if (total === 0 || nonZero / total > SPARSE_DENSITY) return undefined;
    const offsets = new Uint32Array(dims + 1);
    for (let d = 0; d < dims; d++) offsets[d + 1] = offsets[d]! + counts[d + 1]!;
    const cursor = offsets.slice(0, dims);
    const postingRows = new Uint32Array(nonZero);
    const values = new Float32Array(nonZero);
    for (let r = 0; r < this.#size; r++) {
      const base = r * dims;
      for (let d = 0; d < dims; d++) {
        const value = rows[base + d]!;
        if (value === 0) continue;
        const at = cursor[d]!++;
        postingRows[at] = r;
        values[at] = value;
      }
    }
    this.#postings = { offsets, rows: postingRows, values };
    return this.#postings;
  }
}

/** The `k` highest scores with their indices, best first; ties go to the lower index. */
export function topK(scores: ArrayLike<number>, k: number): VectorMatch[] {
  const best: VectorMatch[] = [];
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index]!;
    if (best.length === k && score <= best[k - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at--;
    best.splice(at, 0, { index, score });
    if (best.length > k) best.pop();
  }
  return best;
}

function normalized(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const out = Float32Array.from(vector);
  if (norm === 0 || Math.abs(norm - 1) < 1e-6) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! * scale;
  return out;
}
