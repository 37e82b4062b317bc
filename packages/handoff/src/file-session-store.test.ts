import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ConfigError } from '@swarm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    expect(await new FileSessionStore(dir).get('conv-7')).toEqual(state);
  });

  it('has no session for an unknown id', async () => {
    expect(await new FileSessionStore(join(dir, 'missing')).get('nope')).toBeUndefined();
  });

  it('leaves no temp file behind after a write', async () => {
    const store = new FileSessionStore(dir);
    await store.set('conv-7', state);
    await store.set('conv-7', { ...state, lastAgent: 'triage' });
    expect(await readdir(dir)).toEqual(['conv-7.json']);
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

  it('reports a file that is not a saved session', async () => {
    await writeFile(join(dir, 'bad.json'), '{"history": 3');
    await expect(new FileSessionStore(dir).get('bad')).rejects.toThrow(ConfigError);
  });

  it('rejects an empty directory option', () => {
    expect(() => new FileSessionStore('')).toThrow(/dir must be a non-empty path/);
  });
});
