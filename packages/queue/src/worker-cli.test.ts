import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@swarm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTopologies, parseWorkerArgs } from './worker-cli.js';

describe('swarm-worker arguments', () => {
  it('reads the module, the queue and every option', () => {
    const command = parseWorkerArgs(
      [
        'topologies.js',
        '--queue',
        'support',
        '--redis',
        'redis://10.0.0.5:6380',
        '--concurrency',
        '8',
        '--rate-limit',
        '500/60000',
        '--lock-duration',
        '5000',
        '--stalled-interval',
        '2000',
        '--no-events',
        '--no-journal',
      ],
      {},
    );
    expect(command).toEqual({
      module: 'topologies.js',
      options: {
        name: 'support',
        connection: 'redis://10.0.0.5:6380',
        concurrency: 8,
        rateLimit: { max: 500, perMs: 60_000 },
        lockDurationMs: 5000,
        stalledIntervalMs: 2000,
        events: false,
        journal: false,
      },
    });
  });

  it('takes the queue and Redis from SWARM_QUEUE and REDIS_URL, with a local Redis by default', () => {
    expect(parseWorkerArgs(['t.js'], { SWARM_QUEUE: 'support' }).options).toEqual({
      name: 'support',
      connection: 'redis://127.0.0.1:6379',
    });
    expect(parseWorkerArgs(['t.js'], { SWARM_QUEUE: 'q', REDIS_URL: 'redis://r:1' }).options.connection).toBe(
      'redis://r:1',
    );
  });

  it('names the option of every mistake', () => {
    expect(() => parseWorkerArgs(['t.js'], {})).toThrow(/--queue is required/);
    expect(() => parseWorkerArgs(['--queue', 'q'], {})).toThrow(/exactly one module/);
    expect(() => parseWorkerArgs(['t.js', '--queue', 'q', '--concurrency', '0'], {})).toThrow(
      /--concurrency must be an integer >= 1/,
    );
    expect(() => parseWorkerArgs(['t.js', '--queue', 'q', '--rate-limit', '500'], {})).toThrow(/<max>\/<ms>/);
    expect(() => parseWorkerArgs(['t.js', '--queue', 'q', '--bogus'], {})).toThrow(ConfigError);
  });
});

describe('loading the topologies module', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swarm-worker-cli-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const topology = "{ type: 'T', name: 't', run: async (task) => ({ output: task }), stream() {} }";

  it('takes the default export or the export `topologies`', async () => {
    await writeFile(join(dir, 'default.mjs'), `export default { helpdesk: ${topology} };`);
    await writeFile(join(dir, 'named.mjs'), `export const topologies = { forest: ${topology} };`);
    expect(Object.keys(await loadTopologies(join(dir, 'default.mjs')))).toEqual(['helpdesk']);
    expect(Object.keys(await loadTopologies(join(dir, 'named.mjs')))).toEqual(['forest']);
  });

  it('refuses a module that exports neither', async () => {
    await writeFile(join(dir, 'none.mjs'), 'export const other = 1;');
    await expect(loadTopologies(join(dir, 'none.mjs'))).rejects.toThrow(/default export or as `topologies`/);
  });
});
