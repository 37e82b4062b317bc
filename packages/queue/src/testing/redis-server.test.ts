import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startRedisServer } from './redis-server.js';

describe('startRedisServer', () => {
  it('starts a private Redis on a free loopback port and stop() kills it and removes its directory', async () => {
    const [one, two] = await Promise.all([startRedisServer(), startRedisServer()]);
    try {
      expect(one.port).not.toBe(two.port);
      const client = new Redis(one.connection);
      expect(await client.ping()).toBe('PONG');
      expect(await client.config('GET', 'save')).toEqual(['save', '']);
      await client.quit();
      expect(existsSync(one.dir)).toBe(true);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
    expect(existsSync(one.dir)).toBe(false);
    const client = new Redis({ ...one.connection, lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow();
    client.disconnect();
  });

  it('names the executable when it cannot be started', async () => {
    await expect(startRedisServer({ bin: '/nonexistent/redis-server' })).rejects.toThrow(
      /could not start \/nonexistent\/redis-server/,
    );
  });
});
