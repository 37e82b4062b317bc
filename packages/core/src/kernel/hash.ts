/**
 * FNV-1a over UTF-16 code units: a fast, stable 32-bit hash, the same on every machine and run,
 * for deterministic features (hashed embeddings, mock vectors).
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const utf8 = new TextEncoder();

/**
 * MurmurHash3 x86 128-bit of a text's UTF-8 bytes, as 32 hex digits: the same on every machine and
 * runtime, and wide enough that two different requests never share a key in a run's journal.
 */
export function murmur128(text: string): string {
  return murmur128Bytes(utf8.encode(text), 0)
    .map((word) => word.toString(16).padStart(8, '0'))
    .join('');
}

/** MurmurHash3_x86_128 (Austin Appleby's reference) of `data` with `seed`: four 32-bit words. */
export function murmur128Bytes(data: Uint8Array, seed: number): [number, number, number, number] {
  const length = data.length;
  const blocks = length - (length % 16);
  let h1 = seed >>> 0;
  let h2 = h1;
  let h3 = h1;
  let h4 = h1;
  const word = (i: number) => data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
  for (let i = 0; i < blocks; i += 16) {
    h1 ^= mix(word(i), c1, 15, c2);
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    h2 ^= mix(word(i + 4), c2, 16, c3);
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    h3 ^= mix(word(i + 8), c3, 17, c4);
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    h4 ^= mix(word(i + 12), c4, 18, c1);
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  // The tail: up to 15 bytes, little-endian into k1..k4, each mixed in when it has a byte.
  const tail = [0, 0, 0, 0];
  for (let i = blocks; i < length; i++) tail[(i - blocks) >> 2]! ^= data[i]! << (8 * ((i - blocks) & 3));
  const rest = length - blocks;
  if (rest > 12) h4 ^= mix(tail[3]!, c4, 18, c1);
  if (rest > 8) h3 ^= mix(tail[2]!, c3, 17, c4);
  if (rest > 4) h2 ^= mix(tail[1]!, c2, 16, c3);
  if (rest > 0) h1 ^= mix(tail[0]!, c1, 15, c2);
  h1 ^= length;
  h2 ^= length;
  h3 ^= length;
  h4 ^= length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const c1 = 0x239b961b;
const c2 = 0xab0e9789;
const c3 = 0x38b34ae5;
const c4 = 0xa1e38b93;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function mix(k: number, a: number, r: number, b: number): number {
  return Math.imul(rotl(Math.imul(k, a), r), b);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
