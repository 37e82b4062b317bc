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
