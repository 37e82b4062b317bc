import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { Conversation } from './conversation.js';
import { ConfigError } from './errors.js';
import { nodeBuiltin, optionalNodeBuiltin } from './node-builtin.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Makes the runtime look like a browser: no `process` at all. */
const asBrowser = () => vi.stubGlobal('process', undefined);

describe('nodeBuiltin', () => {
  it('loads the builtin module in Node.js: the very module an import would give', async () => {
    const path = nodeBuiltin<typeof import('node:path')>('node:path', 'a feature', 'use another.');
    expect(path.join('a', 'b')).toBe('a/b');
    expect(nodeBuiltin('node:fs/promises', 'a feature', 'use another.')).toBe(
      (await import('node:fs/promises')).default,
    );
  });

  it('throws a ConfigError naming the feature, the module and what to use instead where there is no process (a browser)', () => {
    asBrowser();
    let thrown: unknown;
    try {
      nodeBuiltin('node:fs/promises', 'Conversation.save()', 'keep toJSON() yourself.');
    } catch (error) {
      thrown = error;
    }
    vi.unstubAllGlobals();
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      'Conversation.save() needs Node.js (node:fs/promises), which this runtime does not have; keep toJSON() yourself.',
    );
  });

  it('throws the same where process has no getBuiltinModule, or it has no such module', () => {
    vi.stubGlobal('process', { env: {} });
    expect(() => nodeBuiltin('node:fs', 'recordModel()', 'record in Node.js.')).toThrow(
      new ConfigError(
        'recordModel() needs Node.js (node:fs), which this runtime does not have; record in Node.js.',
      ),
    );
    vi.unstubAllGlobals();
    expect(() => nodeBuiltin('node:no-such-module', 'A feature', 'use another.')).toThrow(
      /^A feature needs Node\.js \(node:no-such-module\), which this runtime does not have/,
    );
  });
});

describe('optionalNodeBuiltin', () => {
  it('gives the module in Node.js and undefined in a browser, without throwing', () => {
    expect(optionalNodeBuiltin<typeof import('node:path')>('node:path')?.sep).toBe('/');
    asBrowser();
    const inBrowser = optionalNodeBuiltin('node:path');
    vi.unstubAllGlobals();
    expect(inBrowser).toBeUndefined();
  });
});

describe('features that need Node.js, in a browser', () => {
  it('Conversation.save and Conversation.load reject with a ConfigError that says what to do instead', async () => {
    const conversation = new Conversation();
    conversation.add('user', 'Hello.');
    asBrowser();
    const saving = conversation.save('conv.json');
    const loading = Conversation.load('conv.json');
    vi.unstubAllGlobals();
    await expect(saving).rejects.toThrow(
      new ConfigError(
        'Conversation.save() needs Node.js (node:fs/promises), which this runtime does not have; keep conversation.toJSON() in a store of your own (localStorage, a database) and read it back with Conversation.fromJSON().',
      ),
    );
    await expect(loading).rejects.toThrow(/^Conversation\.load\(\) needs Node\.js \(node:fs\/promises\)/);
  });

  it('writeFileAtomic rejects with a ConfigError before touching anything', async () => {
    asBrowser();
    const writing = writeFileAtomic('out.json', '{}');
    vi.unstubAllGlobals();
    await expect(writing).rejects.toBeInstanceOf(ConfigError);
    await expect(writing).rejects.toThrow(/^writeFileAtomic needs Node\.js \(node:fs\/promises\)/);
  });
});
