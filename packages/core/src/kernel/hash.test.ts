import { describe, expect, it } from 'vitest';
import { fnv1a, murmur128, murmur128Bytes } from './hash.js';

describe('fnv1a', () => {
  it('gives the published FNV-1a values', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('murmur128', () => {
  // SMHasher's verification value for MurmurHash3_x86_128: hash the keys {}, {0}, {0,1}, ...,
  // {0..254} with seeds 256 - length, then hash the 256 results (little-endian words) with seed 0.
  it("passes SMHasher's verification test (0xB3ECE62A)", () => {
    const results = new Uint8Array(256 * 16);
    const view = new DataView(results.buffer);
    for (let i = 0; i < 256; i++) {
      const key = Uint8Array.from({ length: i }, (_, j) => j);
      for (const [w, word] of murmur128Bytes(key, 256 - i).entries())
        view.setUint32(i * 16 + w * 4, word, true);
    }
    const final = murmur128Bytes(results, 0);
    expect(final[0]).toBe(0xb3ece62a);
  });

  it('hashes the UTF-8 bytes of a text to 32 hex digits, the same every time', () => {
    expect(murmur128('')).toBe('00000000000000000000000000000000');
    expect(murmur128('héllo')).toMatch(/^[0-9a-f]{32}$/);
    expect(murmur128('héllo')).toBe(murmur128('héllo'));
    expect(murmur128('héllo')).not.toBe(murmur128('hello'));
  });
});
