// What a session store guarantees when several writers (Teams, processes) share a session: a save
// never silently drops a turn another writer saved; it fails with SessionConflictError instead.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Agent, SessionConflictError } from '@swarm/core';
import { Gate, respond, ScriptedModel } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { InMemorySessionStore, type SessionState, type SessionStore } from './session-store.js';
import { Team } from './team.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-conflicts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const turn = (content: string): SessionState['history'][number] => ({ type: 'request', content });

describe.each([
  [
    'FileSessionStore',
    (): [SessionStore, SessionStore] => [new FileSessionStore(dir), new FileSessionStore(dir)],
  ],
  [
    'InMemorySessionStore',
    (): [SessionStore, SessionStore] => {
      const shared = new InMemorySessionStore();
      return [shared, shared];
    },
  ],
])('%s', (_name, stores) => {
  it('counts saves in version', async () => {
    const [store] = stores();
    await store.set('s', { history: [turn('a')], lastAgent: 'x' });
    await store.set('s', { history: [turn('a'), turn('b')], lastAgent: 'x' });
    expect((await store.get('s'))?.version).toBe(2);
  });

  it('refuses a save that would drop a turn another writer saved since, and keeps that turn', async () => {
    const [one, two] = stores();
    await one.set('s', { history: [turn('hello')], lastAgent: 'x' });
    const readByOne = (await one.get('s'))!;
    const readByTwo = (await two.get('s'))!;
    await two.set('s', { history: [...readByTwo.history, turn('from two')], lastAgent: 'x' });
    const error = await one
      .set('s', { history: [...readByOne.history, turn('from one')], lastAgent: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect(error).toMatchObject({ code: 'SESSION_CONFLICT', sessionId: 's' });
    expect((await one.get('s'))?.history).toEqual([turn('hello'), turn('from two')]);
  });

  it('with a version, saves only over that version (compare-and-set)', async () => {
    const [one, two] = stores();
    await one.set('s', { history: [turn('a')], lastAgent: 'x' });
    const read = (await one.get('s'))!;
    await two.set('s', { history: [turn('a')], lastAgent: 'y' });
    await expect(one.set('s', { ...read, lastAgent: 'z' })).rejects.toBeInstanceOf(SessionConflictError);
    expect((await one.get('s'))?.lastAgent).toBe('y');
    const fresh = (await one.get('s'))!;
    await one.set('s', { ...fresh, history: [], lastAgent: 'z' });
    expect(await one.get('s')).toEqual({ history: [], lastAgent: 'z', version: 3 });
  });
});

describe('FileSessionStore across writers', () => {
  it('maps ids injectively: the hash of a long id does not open the long id’s session', async () => {
    const store = new FileSessionStore(dir);
    const long = `customer-${'4111111111111111'.repeat(10)}`;
    await store.set(long, { history: [turn('my card is 4111 1111 1111 1111')], lastAgent: 'billing' });
    const hashed = createHash('sha256').update(long).digest('hex');
    expect(await store.get(hashed)).toBeUndefined();
    expect(store.pathOf(hashed)).not.toBe(store.pathOf(long));
    expect((await store.get(long))?.history).toHaveLength(1);
  });

  it('breaks the lock of a writer that died, and waits for a live one until lockTimeoutMs', async () => {
    const store = new FileSessionStore(dir, { lockTimeoutMs: 60 });
    const lock = `${store.pathOf('s')}.lock`;
    await writeFile(lock, '4194305'); // no such process
    await store.set('s', { history: [turn('a')], lastAgent: 'x' });
    expect(await readdir(dir)).toEqual(['s.json']);

    await writeFile(lock, String(process.pid)); // a live writer holds it
    const error = await store
      .set('s', { history: [turn('a'), turn('b')], lastAgent: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as Error).message).toMatch(/stayed locked/);
    expect((await store.get('s'))?.history).toEqual([turn('a')]);
  });

  it('two Teams on one directory, same session, interleaved: no turn is lost', async () => {
    const gate = new Gate();
    const team = (answer: string) => {
      const model = new ScriptedModel([], {
        fallback: respond(async () => {
          await gate.wait();
          return answer;
        }),
      });
      const agent = new Agent({ name: 'desk', model });
      return Team.swarm({ agents: { desk: agent }, entryAgent: 'desk', sessions: new FileSessionStore(dir) });
    };
    const first = team('Answer one.');
    const second = team('Answer two.');
    // Both runs read the (empty) session and wait in their model call before either saves.
    const runs = [
      first.run('Question one', { sessionId: 'shared' }),
      second.run('Question two', { sessionId: 'shared' }),
    ];
    await gate.until(2);
    gate.open();
    const outcomes = await Promise.allSettled(runs);

    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(SessionConflictError);
    // The loser runs again on the fresh history: both turns are kept.
    const loser = outcomes[0]!.status === 'rejected' ? 0 : 1;
    await [first, second][loser]!.run(loser === 0 ? 'Question one' : 'Question two', { sessionId: 'shared' });
    const saved = (await new FileSessionStore(dir).get('shared'))!;
    const requests = saved.history.filter((item) => item.type === 'request').map((item) => item.content);
    expect(requests.sort()).toEqual(['Question one', 'Question two']);
    expect(saved.version).toBe(2);
  });

  it('several processes appending to one session, retrying on conflict, lose nothing', async () => {
    const processes = 3;
    const appends = 15;
    const storeUrl = pathToFileURL(fileURLToPath(new URL('./file-session-store.ts', import.meta.url))).href;
    const script = join(dir, 'writer.mjs');
    await writeFile(
      script,
      `
const { FileSessionStore } = await import(${JSON.stringify(storeUrl)});
const [dir, name, count] = process.argv.slice(2);
const store = new FileSessionStore(dir);
let conflicts = 0;
for (let i = 0; i < Number(count); i++) {
  for (;;) {
    const stored = await store.get('shared');
    const history = [...(stored?.history ?? []), { type: 'request', content: name + '-' + i }];
    try {
      await store.set('shared', { history, lastAgent: name });
      break;
    } catch (error) {
      if (error.code !== 'SESSION_CONFLICT') throw error;
      conflicts++;
    }
  }
}
console.log(JSON.stringify({ conflicts }));
`,
    );
    // Like vitest's alias, the children read @swarm/core from its sources, never a stale build.
    const coreUrl = new URL('../../core/src/index.ts', import.meta.url).href;
    await writeFile(
      join(dir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
  return next(specifier === '@swarm/core' ? ${JSON.stringify(coreUrl)} : specifier, context);
}`,
    );
    await writeFile(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));`,
    );
    const sessions = join(dir, 'sessions');
    const packageDir = fileURLToPath(new URL('..', import.meta.url));
    const args = ['--import', 'tsx', '--import', join(dir, 'register.mjs'), script, sessions];
    const run = (name: string) =>
      promisify(execFile)(process.execPath, [...args, name, String(appends)], {
        cwd: packageDir,
        timeout: 90_000,
      });
    const results = await Promise.all(Array.from({ length: processes }, (_, i) => run(`p${i}`)));

    const saved = JSON.parse(await readFile(join(sessions, 'shared.json'), 'utf8')) as SessionState;
    const contents = saved.history.map((item) => (item.type === 'request' ? item.content : ''));
    const expected = Array.from({ length: processes }, (_, p) =>
      Array.from({ length: appends }, (_, i) => `p${p}-${i}`),
    ).flat();
    expect(contents.sort()).toEqual(expected.sort());
    expect(saved.version).toBe(processes * appends);
    expect(await readdir(sessions)).toEqual(['shared.json']);
    for (const { stdout } of results) expect(JSON.parse(stdout)).toHaveProperty('conflicts');
  }, 120_000); // three fresh processes compiling TypeScript: slow on a busy machine
});
