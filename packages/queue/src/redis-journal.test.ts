import { Agent, ConfigError, type JournalEntry, tool } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JournalNotReplicatedError } from './queue-errors.js';
import { type RedisJournal, redisJournal } from './redis-journal.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
let admin: Redis;
const journals: RedisJournal[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.connection);
});
afterEach(async () => {
  await Promise.all(journals.splice(0).map((journal) => journal.close()));
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

function journal(options: Parameters<typeof redisJournal>[1] = {}, connection = redis.url): RedisJournal {
  const created = redisJournal(connection, options);
  journals.push(created);
  return created;
}

const toolEntry = (n: number): JournalEntry => ({
  type: 'tool',
  key: `k${n}/0`,
  path: ['clerk'],
  agent: 'clerk',
  tool: 'lookup',
  toolCallId: `call_${n}`,
  result: `result ${n}`,
  isError: false,
});

let runCount = 0;
const newRun = () => `run-${++runCount}`;

// Asks for `lookup` once, then answers with what it said; counts the calls that reach it.
function lookupModel(): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request) => {
      const last = request.messages.at(-1)!;
      if (last.role === 'tool') return `The answer is ${last.content}.`;
      return { text: '', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { q: last.content } }] };
    }),
  });
}

describe('redisJournal', () => {
  it('keeps entries in order in one Redis list per run, readable from another connection', async () => {
    const runId = newRun();
    const writer = journal();
    for (const n of [1, 2, 3]) await writer.append(runId, toolEntry(n));

    expect(await journal().read(runId)).toEqual([toolEntry(1), toolEntry(2), toolEntry(3)]);
    expect(await journal().read(newRun())).toEqual([]);
    // A header, then one element per entry.
    expect(await admin.llen(`swarm:journal:${runId}`)).toBe(4);
    expect(JSON.parse((await admin.lindex(`swarm:journal:${runId}`, 0))!)).toEqual({
      swarmJournal: 1,
      runId,
    });
  });

  it('replays a finished run through core: no model call and no tool run the second time', async () => {
    const runId = newRun();
    const executed: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a question up.',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        executed.push(q);
        return `${q.length} letters`;
      },
    });
    const first = lookupModel();
    const live = await new Agent({ name: 'clerk', model: first, tools: [lookup] }).run('How tall?', {
      journal: journal(),
      runId,
    });
    const second = lookupModel();
    const replayed = await new Agent({ name: 'clerk', model: second, tools: [lookup] }).run('How tall?', {
      journal: journal(),
      runId,
    });

    expect(live).toMatchObject({ output: 'The answer is 9 letters.', liveCalls: 2 });
    expect(replayed).toMatchObject({ output: live.output, replayedCalls: 2, liveCalls: 0 });
    expect(first.calls).toHaveLength(2);
    expect(second.calls).toHaveLength(0);
    expect(executed).toEqual(['How tall?']);
  });

  it('uses its own prefix, and deletes a run', async () => {
    const runId = newRun();
    const prefixed = journal({ prefix: 'support:journal:' });
    await prefixed.append(runId, toolEntry(1));
    expect(await admin.exists(`support:journal:${runId}`)).toBe(1);

    await prefixed.delete(runId);

    expect(await prefixed.read(runId)).toEqual([]);
  });

  it('refuses a run id with path characters before touching Redis', async () => {
    const keysBefore = await admin.dbsize();
    await expect(journal().append('../etc', toolEntry(1))).rejects.toThrow(ConfigError);
    await expect(journal().read('a/b')).rejects.toThrow(/runId must be 1 to 128 letters/);
    expect(await admin.dbsize()).toBe(keysBefore);
  });

  it('refuses a key that is not one of its journals, naming it, and writes nothing', async () => {
    const [aString, noHeader, otherRun, badEntry] = [newRun(), newRun(), newRun(), newRun()];
    await admin.set(`swarm:journal:${aString}`, 'hello');
    await admin.rpush(`swarm:journal:${noHeader}`, JSON.stringify(toolEntry(1)));
    await admin.rpush(
      `swarm:journal:${otherRun}`,
      JSON.stringify({ swarmJournal: 1, runId: 'someone-else' }),
    );
    await admin.rpush(
      `swarm:journal:${badEntry}`,
      JSON.stringify({ swarmJournal: 1, runId: badEntry }),
      JSON.stringify({ type: 'model', key: 'x' }),
    );
    const store = journal();

    await expect(store.read(aString)).rejects.toThrow(
      `redis key swarm:journal:${aString} is not a swarm journal (it holds another kind of value).`,
    );
    await expect(store.append(aString, toolEntry(1))).rejects.toThrow(ConfigError);
    expect(await admin.get(`swarm:journal:${aString}`)).toBe('hello');
    await expect(store.read(noHeader)).rejects.toThrow(/its first element is not a journal header/);
    await expect(store.read(otherRun)).rejects.toThrow(/holds run "someone-else", not/);
    await expect(store.read(badEntry)).rejects.toThrow(
      new RegExp(`redis journal swarm:journal:${badEntry} entry 1 is not a journal entry`),
    );
  });

  it('with replicas, resolves once a replica holds the entry, and fails when too few do', async () => {
    const replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(redis.port)] });
    try {
      const replicaClient = new Redis(replica.connection);
      while ((await replicaClient.info('replication')).includes('master_link_status:down'))
        await new Promise((resolve) => setTimeout(resolve, 50));
      const runId = newRun();

      await journal({ replicas: 1 }).append(runId, toolEntry(1));
      // Read straight from the replica, with no wait: WAIT already saw it there.
      expect(await replicaClient.llen(`swarm:journal:${runId}`)).toBe(2);
      replicaClient.disconnect();

      const error = await journal({ replicas: 2, replicaTimeoutMs: 200 })
        .append(runId, toolEntry(2))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalNotReplicatedError);
      expect(error).toMatchObject({ code: 'JOURNAL_NOT_REPLICATED', runId, replicas: 2, acknowledged: 1 });
    } finally {
      await replica.stop();
    }
  });

  it('rejects bad options with a ConfigError naming the option', () => {
    expect(() => redisJournal(redis.url, { replicas: -1 })).toThrow(/replicas must be an integer >= 0/);
    expect(() => redisJournal(redis.url, { replicaTimeoutMs: 0 })).toThrow(/replicaTimeoutMs/);
    expect(() => redisJournal('http://x')).toThrow(/redis:\/\//);
  });

  it('refuses a second holder of the run with RunLockedError naming the first, until it gives the run back', async () => {
    const runId = newRun();
    const [a, b] = [journal(), journal()];
    const held = await a.acquireLease(runId);
    const error = await b.acquireLease(runId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUN_LOCKED', runId, holder: { pid: process.pid } });
    expect((error as Error).message).toContain(`pid ${process.pid}`);
    await a.releaseLease(held);
    const next = await b.acquireLease(runId);
    expect(next.token).toBeGreaterThan(held.token);
    // The first holder is fenced off: its append is refused and nothing is written.
    await expect(a.append(runId, toolEntry(1), held)).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await b.append(runId, toolEntry(2), next);
    expect((await b.read(runId)).map((e) => e.key)).toEqual(['k2/0']);
  });

  it('ties a lease to a BullMQ job lock: held while the lock holds the token, taken over once another worker has the job', async () => {
    const runId = newRun();
    const lockKey = `bull:tie:${runId}:lock`;
    await admin.set(lockKey, 'token-A');
    const [a, b] = [journal(), journal()];
    const held = await a.acquireLease(runId, {
      jobLock: { key: lockKey, token: 'token-A', holder: 'worker A' },
    });
    const error = await b
      .acquireLease(runId, { jobLock: { key: lockKey, token: 'token-B' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUN_LOCKED' });
    expect((error as Error).message).toContain('worker A');
    // The job stalled and another worker took it: its lock holds another token now.
    await admin.set(lockKey, 'token-B');
    const taken = await b.acquireLease(runId, { jobLock: { key: lockKey, token: 'token-B' } });
    expect(taken.token).toBe(held.token + 1);
    await expect(a.append(runId, toolEntry(1), held)).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    await b.append(runId, toolEntry(2), taken);
    expect((await a.read(runId)).map((e) => e.key)).toEqual(['k2/0']);
  });
});
