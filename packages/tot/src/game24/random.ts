/**
 * A deterministic number in [0, 1) for a seed and a situation (FNV-1a hash, then a mulberry32
 * round): the same node always gets the same noise, whatever order the search visits it in.
 */
export function seededRandom(...parts: (string | number)[]): () => number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0000')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
