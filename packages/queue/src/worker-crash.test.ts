// A worker process SIGKILLed in the middle of a journaled job: another takes it over and finishes it
// with the same answer, without repeating a finished model call, a tool's side effect or a session turn.
import { type MockProviderServer, type MockRequest, mockProviderServer } from '@swarm/core/testing';
import { type HistoryItem, historyItemSchema } from '@swarm/handoff';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalPrefix } from './durable-job.js';
import { RedisSessionStore } from './redis-session-store.js';
import { SwarmQueue } from './swarm-queue.js';
import { startWorkerProcess, type WorkerProcess } from './test-fixtures/worker-process.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
let mock: MockProviderServer;
let admin: Redis;
let queue: SwarmQueue;
let sessions: RedisSessionStore<HistoryItem>;
const workers = new Map<string, WorkerProcess>();
// The request (by its messages) to leave unanswered once, while the test kills the worker that made it.
let hangOn: ((request: MockRequest) => boolean) | undefined;

type Message = { role: string; content?: string | null };
const messagesOf = (request: MockRequest) => request.body.messages as Message[];
const textOf = (request: MockRequest) => JSON.stringify(request.body.messages);

// The desk looks the order up, then answers; the summarizer counts the answer's characters.
function answer(request: MockRequest) {
  const messages = messagesOf(request);
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  if (user.startsWith('Summarize: ')) return { text: `Summary of ${user.length - 11} characters.` };
  const tool = messages.findLast((m) => m.role === 'tool');
  const order = /order (\S+)/.exec(user)?.[1] ?? '?';
  if (tool) return { text: `Order ${order} is paid; the refund is on its way.` };
  return { text: '', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { order } }] };
}

beforeAll(async () => {
  [redis, mock] = await Promise.all([
    startRedisServer(),
    mockProviderServer({
      latencyMs: 50,
      handler: (request) => {
        if (hangOn?.(request)) {
          hangOn = undefined;
          return { fault: 'hang' };
        }
        return answer(request);
      },
    }),
  ]);
  admin = new Redis(redis.connection);
  // Short locks, so that a killed worker's job is taken over within seconds.
  const started = await Promise.all(
    ['A', 'B', 'C'].map((name) =>
      startWorkerProcess(
        ['--redis', redis.url, '--queue', 'crash', '--lock-duration', '3000', '--stalled-interval', '1000'],
        { FIXTURE_WORKER: name, FIXTURE_MOCK_URL: mock.openaiBaseURL, FIXTURE_REDIS_URL: redis.url },
      ),
    ),
  );
  for (const [i, worker] of started.entries()) workers.set(['A', 'B', 'C'][i]!, worker);
  queue = new SwarmQueue({ name: 'crash', connection: redis.url });
  sessions = new RedisSessionStore({ connection: redis.url, itemSchema: historyItemSchema });
}, 180_000);
afterAll(async () => {
  await Promise.all([queue?.close(), sessions?.close()]);
  await Promise.all([...workers.values()].map((worker) => worker.kill()));
  admin?.disconnect();
  await Promise.all([redis?.stop(), mock?.close()]);
});

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How many times the queue's event stream says the job completed and stalled. */
async function jobEvents(jobId: string) {
  const entries = await admin.xrange('bull:crash:events', '-', '+');
  const count = (event: string) =>
    entries.filter(([, f]) => f[f.indexOf('event') + 1] === event && f[f.indexOf('jobId') + 1] === jobId)
      .length;
  return { completed: count('completed'), stalled: count('stalled') };
}

describe('a worker process SIGKILLed mid-job', () => {
  it.each([
    [
      'after the tool ran, during the desk’s second model call',
      (m: Message[]) => m.some((x) => x.role === 'tool'),
      1,
    ],
    [
      'after the session turn was saved, during the summary call',
      (m: Message[]) => m.some((x) => x.role === 'user' && x.content?.startsWith('Summarize: ')),
      2,
    ],
  ])(
    '%s: another worker finishes it with the same answer, repeating only the call in flight',
    async (_when, killPoint, finished) => {
      const order = `o${Date.now().toString(36)}`;
      const task = `Refund order ${order} please`;
      const ours = () => mock.requests.filter((request) => textOf(request).includes(order));
      hangOn = (request) => textOf(request).includes(order) && killPoint(messagesOf(request));

      const job = await queue.enqueue('durable', task, {
        jobId: `job-${order}`,
        sessionId: `session-${order}`,
      });
      await until(() => ours().some((request) => killPoint(messagesOf(request))), 'the call to kill in');
      const victim = ours().at(-1)!.headers['x-fixture-worker']!;
      await workers.get(victim)!.kill('SIGKILL');
      workers.delete(victim);

      const result = await job.result({ timeoutMs: 60_000 });

      const desk = `Order ${order} is paid; the refund is on its way.`;
      expect(result.output).toBe(`${desk} | Summary of ${desk.length} characters.`);
      // Three different calls; only the one in flight when the worker died was made again.
      const byCall = new Map<string, number>();
      for (const request of ours()) byCall.set(textOf(request), (byCall.get(textOf(request)) ?? 0) + 1);
      expect([...byCall.values()].sort()).toEqual([1, 1, 2]);
      const repeated = [...byCall].find(([, count]) => count === 2)![0];
      expect(killPoint(JSON.parse(repeated) as Message[])).toBe(true);
      // Another worker made the repeat, and replayed the rest.
      expect(ours().at(-1)!.headers['x-fixture-worker']).not.toBe(victim);
      expect(result).toMatchObject({ llmCalls: 3, replayedCalls: finished, liveCalls: 3 - finished });
      // The lookup's side effect happened once, the session holds the user's message once.
      expect(await admin.get(`fixture:lookup:${order}`)).toBe('1');
      const session = await sessions.get(`session-${order}`);
      expect(session?.history.filter((item) => item.type === 'request')).toEqual([
        { type: 'request', content: task },
      ]);
      expect(session?.version).toBe(1);
      // Taken over once, stored once, and its journal dropped once finished.
      expect(await jobEvents(job.id)).toEqual({ completed: 1, stalled: 1 });
      await until(
        async () => (await admin.exists(`${journalPrefix('crash')}${job.id}`)) === 0,
        'the journal to go',
      );
    },
    120_000,
  );
});
