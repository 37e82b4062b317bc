/**
 * Test helper: the bytes of a word-vector file (layout of scripts/build-word-vectors.mjs) holding
 * the given words, in the given order (their frequency ranks), with int8 components.
 */
export function encodeWordVectors(rows: Record<string, number[]>): Uint8Array {
  const words = Object.keys(rows);
  const dimensions = rows[words[0]!]!.length;
  const list = new TextEncoder().encode(words.join('\n'));
  const bytes = new Uint8Array(16 + list.length + words.length * dimensions);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('SWV1'), 0);
  view.setUint32(4, words.length, true);
  view.setUint32(8, dimensions, true);
  view.setUint32(12, list.length, true);
  bytes.set(list, 16);
  words.forEach((word, i) => {
    for (const [d, x] of rows[word]!.entries()) view.setInt8(16 + list.length + i * dimensions + d, x);
  });
  return bytes;
}
