import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from './random-uuid.js';

const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('randomUUID', () => {
  it("gives the runtime's crypto.randomUUID() where it has one", () => {
    const spy = vi.spyOn(crypto, 'randomUUID');
    expect(randomUUID()).toMatch(v4);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('builds a v4 UUID from getRandomValues on a page that is not secure (no crypto.randomUUID)', () => {
    const real = crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => real.getRandomValues(bytes) });
    const ids = new Set(Array.from({ length: 1_000 }, () => randomUUID()));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(id).toMatch(v4);
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => bytes.fill(0xff) });
    expect(randomUUID()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
