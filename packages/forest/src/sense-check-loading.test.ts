import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { homePrompts } from './test-helpers.js';

// Counts (and can hold back or fail) the reads of @swarm/embeddings' packaged word vectors, which
// it reads through Node's own fs module (process.getBuiltinModule): the spy sits on that module.
const fs = process.getBuiltinModule('node:fs/promises');
const realReadFile = fs.readFile;
const reads = { count: 0, failNext: false, gate: undefined as Promise<void> | undefined };
beforeAll(() => {
  vi.spyOn(fs, 'readFile').mockImplementation((async (...args: Parameters<typeof realReadFile>) => {
    if (String(args[0]).endsWith('word-vectors.bin')) {
      reads.count++;
      if (reads.gate) await reads.gate;
      if (reads.failNext) {
        reads.failNext = false;
        throw Object.assign(new Error('ENOENT: simulated missing file'), { code: 'ENOENT' });
      }
    }
    return realReadFile(...args);
  }) as typeof realReadFile);
});
afterAll(() => {
  vi.restoreAllMocks();
});

afterEach(() => {
  reads.count = 0;
  reads.failNext = false;
  reads.gate = undefined;
  // A fresh @swarm/embeddings for every test: its word vectors are loaded once per module instance.
  vi.resetModules();
});

/** The home forest of sense-check.test.ts, from a fresh import of the package. */
async function homeForest(options: { senseCheck?: boolean } = {}) {
  const { ForestSwarm, Tree, TreeAgent } = await import('./index.js');
  const agent = (name: string, systemPrompt: string) =>
    new TreeAgent({ name, systemPrompt, model: 'openai:unused' });
  return new ForestSwarm({
    trees: [
      new Tree({
        name: 'Home',
        agents: [agent('Dog Trainer', homePrompts.dogTrainer), agent('Gardener', homePrompts.gardener)],
      }),
    ],
    ...options,
  });
}

describe('loading the word vectors of the sense check', () => {
  it('reads nothing at import, nor for evidence of two words, and never with senseCheck: false', async () => {
    const forest = await homeForest();
    await expect(forest.route('My dog keeps barking at the neighbours.')).resolves.toMatchObject({
      agent: 'Dog Trainer',
    });
    expect(reads.count).toBe(0);
    const lexical = await homeForest({ senseCheck: false });
    await expect(lexical.route('How do I train for a marathon?')).resolves.toMatchObject({
      agent: 'Dog Trainer',
    });
    expect(reads.count).toBe(0);
    // The first one-word match needs the vectors: read once, then shared.
    await expect(forest.route('How do I train for a marathon?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
    await forest.route('What is the best tree for a small backyard?');
    expect(reads.count).toBe(1);
  });

  it('fails a route with a ConfigError that names the fix when the file cannot be read, and retries', async () => {
    const { ConfigError } = await import('@swarm/core');
    const forest = await homeForest();
    reads.failNext = true;
    const failure = await forest
      .route('How do I train my puppy to stop pulling?')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(
      /sense check needs the word vectors of @swarm\/embeddings: .*word-vectors\.bin \(ENOENT: simulated missing file\).*senseCheck: false/,
    );
    // Not remembered: the next route reads again and routes.
    await expect(forest.route('How do I train my puppy to stop pulling?')).resolves.toMatchObject({
      agent: 'Dog Trainer',
    });
    expect(reads.count).toBe(2);
  });

  it('rejects a route aborted while the word vectors load with AbortError, without waiting for them', async () => {
    const { AbortError } = await import('@swarm/core');
    const forest = await homeForest();
    // Prompts and reference texts embedded first, so the route below waits on the word vectors only.
    await forest.route('My dog keeps barking at the neighbours.');
    let release!: () => void;
    reads.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const controller = new AbortController();
    const routing = forest
      .route('How do I train my puppy to stop pulling?', { signal: controller.signal })
      .catch((error: unknown) => error);
    await vi.waitFor(() => expect(reads.count).toBe(1));
    controller.abort();
    expect(await routing).toBeInstanceOf(AbortError);
    release();
    // The load went on: the next route uses it.
    await expect(forest.route('How do I train my puppy to stop pulling?')).resolves.toMatchObject({
      agent: 'Dog Trainer',
    });
    expect(reads.count).toBe(1);
  });
});
