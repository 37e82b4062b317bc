import { journalConformanceTests } from '@swarm/core/testing/vitest';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { type RedisJournal, redisJournal } from './redis-journal.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
let admin: Redis;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.connection);
}, 30_000);
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

journalConformanceTests('redisJournal', {
  create: () => redisJournal(redis.url, { prefix: 'conformance:' }),
  close: (journal) => (journal as RedisJournal).close(),
  atomicAppends: 'an append is one Lua script: Redis runs it whole or not at all',
  setFormatVersion: async (_journal, runId, version) => {
    await admin.lset(`conformance:${runId}`, 0, JSON.stringify({ swarmJournal: version, runId }));
  },
});
