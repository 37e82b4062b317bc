import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ConfigError } from '@swarm/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import type { SessionState } from './session-store.js';

const state: SessionState = {
  history: [
    { type: 'request', content: 'I was charged twice' },
    { type: 'handoff', from: 'triage', to: 'billing', message: 'duplicate', arguments: { invoice_id: '42' } },
    { type: 'text', agent: 'billing', content: 'Refunded.' },
  ],
  lastAgent: 'billing',
};

describe('FileSessionStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swarm-sessions-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back what another instance wrote', async () => {
    await new FileSessionStore(dir).set('conv-7', state);
    expect(await new FileSessionStore(dir).get('conv-7')).toEqual({ ...state, version: 1 });
  });

  it('has no session for an unknown id', async () => {
    expect(await new FileSessionStore(join(dir, 'missing')).get('nope')).toBeUndefined();
  });

  it('replaces a session file in one rename, never rewriting it in place, and leaves no temp file', async () => {
    const store = new FileSessionStore(dir);
    await store.set('conv-7', state);
    const path = store.pathOf('conv-7');
    const before = await stat(path);
    await store.set('conv-7', { ...state, lastAgent: 'triage' });
    // A new inode: readers see the old file or the new one, never a half-written mix.
    expect((await stat(path)).ino).not.toBe(before.ino);
    expect(await readdir(dir)).toEqual(['conv-7.json']);
    expect((await store.get('conv-7'))?.lastAgent).toBe('triage');
  });

  it('keeps ids that are not file names inside its directory', () => {
    const store = new FileSessionStore(dir);
    for (const id of ['../escape', 'a/b', '..', 'x'.repeat(500)]) {
      const path = store.pathOf(id);
      expect(join(dir, basename(path))).toBe(path);
      expect(basename(path).length).toBeLessThan(200);
    }
    expect(store.pathOf('a/b')).not.toBe(store.pathOf('a_b'));
  });

  it('reports a file that is not a saved session, with the reason', async () => {
    await writeFile(join(dir, 'bad.json'), '{"history": 3');
    await writeFile(join(dir, 'wrong.json'), '{"history": 3, "lastAgent": "billing"}');
    const store = new FileSessionStore(dir);
    await expect(store.get('bad')).rejects.toThrow(ConfigError);
    await expect(store.get('bad')).rejects.toThrow(/not valid JSON/);
    await expect(store.get('wrong')).rejects.toThrow(ConfigError);
    await expect(store.get('wrong')).rejects.toThrow(/wrong\.json is not a saved session \(.*history/);
  });

  it('rejects an empty directory option', () => {
    expect(() => new FileSessionStore('')).toThrow(/dir must be a non-empty path/);
  });
});

describe('FileSessionStore in a browser or an edge runtime', () => {
  it('throws a ConfigError at construction that names InMemorySessionStore instead', () => {
    vi.stubGlobal('process', undefined);
    let thrown: unknown;
    try {
      new FileSessionStore('./sessions');
    } catch (error) {
      thrown = error;
    }
    vi.unstubAllGlobals();
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      'FileSessionStore needs Node.js (node:fs/promises), which this runtime does not have; use InMemorySessionStore, or a SessionStore of your own over the storage the runtime has.',
    );
  });
});
