import { Agent, ConfigError, messageText, SessionConflictError } from '@swarm/core';
import { Gate, respond, ScriptedModel } from '@swarm/core/testing';
import { type HistoryItem, historyItemSchema, type SessionStore, Team } from '@swarm/handoff';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAsJob } from './job-scope.js';
import { RedisSessionStore } from './redis-session-store.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
const stores: RedisSessionStore<HistoryItem>[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await redis?.stop();
});

function store(): RedisSessionStore<HistoryItem> {
  const created = new RedisSessionStore({ connection: redis.connection, itemSchema: historyItemSchema });
  stores.push(created);
  return created;
}

const request = (content: string): HistoryItem => ({ type: 'request', content });
let sessionCount = 0;
const newSession = () => `s${++sessionCount}`;

describe('RedisSessionStore', () => {
  it('implements the handoff session-store contract: a Team continues a conversation across stores', async () => {
    const contract: SessionStore = store();
    const sessionId = newSession();
    const model = new ScriptedModel([], {
      fallback: respond(
        (req) => `I have seen ${req.messages.filter((m) => m.role === 'user').length} messages.`,
      ),
    });
    const team = (sessions: SessionStore) =>
      Team.swarm({ agents: { desk: new Agent({ name: 'desk', model }) }, entryAgent: 'desk', sessions });

    await team(contract).run('First', { sessionId });
    const second = await team(store()).run('Second', { sessionId });

    expect(second.output).toBe('I have seen 2 messages.');
    const saved = await store().get(sessionId);
    expect(saved?.version).toBe(2);
    expect(saved?.history.filter((item) => item.type === 'request').map((item) => item.content)).toEqual([
      'First',
      'Second',
    ]);
  });

  it('returns undefined for a session never saved, and counts saves in version', async () => {
    const sessions = store();
    const sessionId = newSession();
    expect(await sessions.get(sessionId)).toBeUndefined();
    await sessions.set(sessionId, { history: [request('a')], lastAgent: 'x' });
    await sessions.set(sessionId, { history: [request('a'), request('b')], lastAgent: 'y' });
    expect(await sessions.get(sessionId)).toEqual({
      history: [request('a'), request('b')],
      lastAgent: 'y',
      version: 2,
    });
  });

  it('two concurrent turns of one session on two Teams keep both', async () => {
    const sessionId = newSession();
    const gate = new Gate();
    const team = (answer: string) => {
      const model = new ScriptedModel([], {
        fallback: respond(async () => {
          await gate.wait();
          return answer;
        }),
      });
      return Team.swarm({
        agents: { desk: new Agent({ name: 'desk', model }) },
        entryAgent: 'desk',
        sessions: store(),
      });
    };
    const runs = [
      team('Answer one.').run('Question one', { sessionId }),
      team('Answer two.').run('Question two', { sessionId }),
    ];
    // Both turns have read the empty session and wait in their model call before either saves.
    await gate.until(2);
    gate.open();
    await Promise.all(runs);

    const saved = await store().get(sessionId);
    const contents = saved?.history.map((item) => ('content' in item ? item.content : item.type));
    expect(contents).toHaveLength(4);
    expect(contents).toEqual(
      expect.arrayContaining(['Question one', 'Answer one.', 'Question two', 'Answer two.']),
    );
    // Each turn stays whole: its answer right after its question.
    expect(contents?.indexOf('Answer one.')).toBe((contents?.indexOf('Question one') ?? -2) + 1);
    expect(contents?.indexOf('Answer two.')).toBe((contents?.indexOf('Question two') ?? -2) + 1);
    expect(saved?.version).toBe(2);
  });

  it('appends a stale writer’s turn to the fresh history instead of replacing it', async () => {
    const sessionId = newSession();
    const [one, two] = [store(), store()];
    await one.set(sessionId, { history: [request('hello')], lastAgent: 'x' });
    const readByOne = (await one.get(sessionId))!;
    const readByTwo = (await two.get(sessionId))!;
    await two.set(sessionId, { history: [...readByTwo.history, request('from two')], lastAgent: 'two' });
    await one.set(sessionId, { history: [...readByOne.history, request('from one')], lastAgent: 'one' });

    expect(await store().get(sessionId)).toEqual({
      history: [request('hello'), request('from two'), request('from one')],
      lastAgent: 'one',
      version: 3,
    });
  });

  it('refuses a stale write that changed the turns it read, keeping the other writer’s turn', async () => {
    const sessionId = newSession();
    const [one, two] = [store(), store()];
    await one.set(sessionId, { history: [request('hello')], lastAgent: 'x' });
    await one.get(sessionId);
    const readByTwo = (await two.get(sessionId))!;
    await two.set(sessionId, { history: [...readByTwo.history, request('from two')], lastAgent: 'two' });

    const error = await one
      .set(sessionId, { history: [request('rewritten')], lastAgent: 'one' })
      .catch((e) => e);

    expect(error).toBeInstanceOf(SessionConflictError);
    expect(error).toMatchObject({ code: 'SESSION_CONFLICT', sessionId });
    expect((await store().get(sessionId))?.history).toEqual([request('hello'), request('from two')]);
  });

  it('keeps every append when many writers race on one session (WATCH conflicts retried)', async () => {
    const sessionId = newSession();
    const writers = [store(), store(), store(), store()];
    const appends = 10;
    await Promise.all(
      writers.map(async (writer, w) => {
        for (let i = 0; i < appends; i++) {
          const read = await writer.get(sessionId);
          await writer.set(sessionId, {
            history: [...(read?.history ?? []), request(`w${w}-${i}`)],
            lastAgent: `w${w}`,
          });
        }
      }),
    );
    const saved = (await store().get(sessionId))!;
    const expected = writers.flatMap((_, w) => Array.from({ length: appends }, (_, i) => `w${w}-${i}`));
    expect(saved.history.map((item) => (item.type === 'request' ? item.content : '')).sort()).toEqual(
      expected.sort(),
    );
    expect(saved.version).toBe(writers.length * appends);
  });

  it('writes a job’s turn once when the job runs twice, and shows the second attempt what the first read', async () => {
    const sessionId = newSession();
    const seen: string[][] = [];
    const model = new ScriptedModel([], {
      fallback: respond((req) => {
        seen.push(req.messages.filter((m) => m.role === 'user').map(messageText));
        return `answer ${seen.length}`;
      }),
    });
    const team = Team.swarm({
      agents: { desk: new Agent({ name: 'desk', model }) },
      entryAgent: 'desk',
      sessions: store(),
    });
    await team.run('Earlier question', { sessionId });

    // Two attempts of job 7 (its worker died after the save), with another job's turn in between.
    await runAsJob('support', '7', () => team.run('I was charged twice', { sessionId }));
    await team.run('A later question', { sessionId });
    await runAsJob('support', '7', () => team.run('I was charged twice', { sessionId }));

    const saved = (await store().get(sessionId))!;
    expect(saved.history.filter((item) => item.type === 'request').map((item) => item.content)).toEqual([
      'Earlier question',
      'I was charged twice',
      'A later question',
    ]);
    expect(saved.version).toBe(3);
    // The second attempt saw the thread as the first did, not its own earlier turn.
    expect(seen[1]).toEqual(['Earlier question', 'I was charged twice']);
    expect(seen[3]).toEqual(seen[1]);
  });

  it('keeps the turns of different jobs, and of one job saving twice, apart', async () => {
    const sessionId = newSession();
    const sessions = store();
    const save = async (text: string) => {
      const read = await sessions.get(sessionId);
      await sessions.set(sessionId, { history: [...(read?.history ?? []), request(text)], lastAgent: 'x' });
    };
    await runAsJob('support', 'a', async () => {
      await save('a1');
      await save('a2');
    });
    await runAsJob('support', 'b', () => save('b1'));
    await runAsJob('billing', 'a', () => save('other queue, same job id'));
    await runAsJob('support', 'a', async () => {
      await save('a1');
      await save('a2');
    });

    expect((await store().get(sessionId))?.history).toEqual([
      request('a1'),
      request('a2'),
      request('b1'),
      request('other queue, same job id'),
    ]);
  });

  it('reads back a session that is not one as a ConfigError naming it', async () => {
    const sessionId = newSession();
    const client = new Redis(redis.connection);
    await client.hset(`swarm:session:${sessionId}`, {
      state: JSON.stringify({ history: [{ type: 'nope' }] }),
      version: '1',
    });
    await client.quit();
    await expect(store().get(sessionId)).rejects.toThrow(ConfigError);
    await expect(store().get(sessionId)).rejects.toThrow(`session "${sessionId}" is not a saved session`);
  });

  it('rejects bad options with a ConfigError', () => {
    expect(() => new RedisSessionStore({ connection: redis.connection, ttlSeconds: 0 })).toThrow(
      /ttlSeconds/,
    );
    expect(() => new RedisSessionStore({ connection: { port: 0 } })).toThrow(/connection.port/);
  });
});
