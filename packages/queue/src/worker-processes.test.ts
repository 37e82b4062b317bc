// Real worker processes (the package's swarm-worker bin) on a real Redis: what a fleet guarantees.
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SwarmQueue } from './swarm-queue.js';
import { startWorkerProcess, type WorkerProcess } from './test-fixtures/worker-process.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
let mock: MockProviderServer;
const arrivals: number[] = [];
const workers: WorkerProcess[] = [];
const queues: SwarmQueue[] = [];
let fleetWorkers: WorkerProcess[];
let sessionWorkers: WorkerProcess[];

// Every worker process of the file starts at once: starting one is most of the file's time.
beforeAll(async () => {
  [redis, mock] = await Promise.all([
    startRedisServer(),
    mockProviderServer({
      handler: () => {
        arrivals.push(Date.now());
        return { text: 'ok' };
      },
    }),
  ]);
  let a: WorkerProcess[];
  let b: WorkerProcess[];
  [fleetWorkers, , a, b] = await Promise.all([
    // Short locks so that a killed worker's jobs are taken over within seconds.
    start(
      3,
      ['--queue', 'fleet', '--concurrency', '4', '--lock-duration', '3000', '--stalled-interval', '1000'],
      () => ({
        FIXTURE_LATENCY_MS: '20',
      }),
    ),
    start(2, ['--queue', 'limited', '--concurrency', '4', '--rate-limit', '5/4000'], () => ({
      FIXTURE_MOCK_URL: mock.openaiBaseURL,
    })),
    // One worker per queue, so the producer decides which worker takes each turn of a session.
    start(1, ['--queue', 'sessions-a'], () => ({ FIXTURE_REDIS_URL: redis.url, FIXTURE_WORKER: 'A' })),
    start(1, ['--queue', 'sessions-b'], () => ({ FIXTURE_REDIS_URL: redis.url, FIXTURE_WORKER: 'B' })),
  ]);
  sessionWorkers = [...a, ...b];
}, 180_000);
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.close()));
  await Promise.all(workers.map((worker) => worker.kill()));
  await Promise.all([redis?.stop(), mock?.close()]);
});

function queue(name: string, options: { attempts?: number } = {}): SwarmQueue {
  const created = new SwarmQueue({
    name,
    connection: redis.url,
    backoff: { type: 'fixed', delayMs: 20 },
    ...options,
  });
  queues.push(created);
  return created;
}

async function start(count: number, args: string[], env: (i: number) => Record<string, string> = () => ({})) {
  const started = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startWorkerProcess(['--redis', redis.url, ...args], { FIXTURE_WORKER: `w${i}`, ...env(i) }),
    ),
  );
  workers.push(...started);
  return started;
}

/** How many times the queue's event stream says each job completed, and how many stalls it saw. */
async function streamCounts(name: string) {
  const client = new Redis(redis.connection);
  const entries = await client.xrange(`bull:${name}:events`, '-', '+');
  await client.quit();
  const completed = new Map<string, number>();
  let stalled = 0;
  for (const [, fields] of entries) {
    const event = fields[fields.indexOf('event') + 1];
    const jobId = fields[fields.indexOf('jobId') + 1] ?? '';
    if (event === 'completed') completed.set(jobId, (completed.get(jobId) ?? 0) + 1);
    if (event === 'stalled') stalled++;
  }
  return { completed, stalled };
}

describe('a fleet of worker processes', () => {
  const fleet = 'fleet';

  it('runs a batch of 200 tasks over 3 workers: every result once, in input order', async () => {
    const tasks = Array.from({ length: 200 }, (_, i) => `task ${i}`);
    const settled = await queue(fleet).batchedRun('echo', tasks);

    const outputs = settled.map((s) =>
      s.status === 'fulfilled' ? s.value.output : `failed: ${String(s.reason)}`,
    );
    for (const [i, output] of outputs.entries())
      expect(output).toMatch(new RegExp(`^done: task ${i} \\(w\\d\\)$`));
    const byWorker = new Set(outputs.map((output) => /\((w\d)\)$/.exec(output)?.[1]));
    expect(byWorker).toEqual(new Set(['w0', 'w1', 'w2']));
    const { completed } = await streamCounts(fleet);
    expect(completed.size).toBe(200);
    expect([...completed.values()].every((count) => count === 1)).toBe(true);
  }, 60_000);

  it('loses nothing when a worker is SIGKILLed mid-batch: its jobs are taken over and stored once', async () => {
    const producer = queue(fleet);
    const before = (await streamCounts(fleet)).completed.size;
    const tasks = Array.from({ length: 120 }, (_, i) => `kill-batch ${i}`);
    const batch = producer.batchedRun('echo', tasks);
    // Kill w0 once the batch is well under way, while it holds jobs.
    while (((await producer.counts()).completed ?? 0) < before + 30)
      await new Promise((r) => setTimeout(r, 20));
    await fleetWorkers[0]!.kill('SIGKILL');
    const settled = await batch;

    const outputs = settled.map((s) =>
      s.status === 'fulfilled' ? s.value.output : `failed: ${String(s.reason)}`,
    );
    for (const [i, output] of outputs.entries())
      expect(output).toMatch(new RegExp(`^done: kill-batch ${i} \\(w\\d\\)$`));
    const { completed, stalled } = await streamCounts(fleet);
    expect(stalled).toBeGreaterThan(0);
    expect(completed.size).toBe(before + 120);
    expect([...completed.values()].every((count) => count === 1)).toBe(true);
  }, 60_000);
});

describe('worker processes calling a provider', () => {
  it('holds the rate limit across workers: at most 5 requests per 4 seconds at the provider', async () => {
    arrivals.length = 0;
    const tasks = Array.from({ length: 10 }, (_, i) => `limited ${i}`);
    const settled = await queue('limited').batchedRun('provider', tasks);

    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
    expect(arrivals).toHaveLength(10);
    // Two workers with four job slots each: without a limit shared between them, all ten requests
    // would arrive together. Shared, the sixth comes a window (4 s) after the first, less the time
    // a request may take to get through a badly loaded machine (up to 2 s).
    for (let i = 0; i + 5 < arrivals.length; i++) {
      expect(arrivals[i + 5]! - arrivals[i]!).toBeGreaterThanOrEqual(2_000);
    }
  }, 30_000);

  it('retries a 429 from the provider on another attempt, and the run succeeds', async () => {
    const before = mock.requests.length;
    mock.enqueue({ fault: 'rate-limit', retryAfterMs: 10 }, { text: 'Answered after a 429.' });
    const result = await (await queue('limited').enqueue('provider', 'please')).result();

    expect(result.output).toBe('Answered after a 429.');
    expect(mock.requests.length - before).toBe(2);
  }, 30_000);
});

describe('a handoff session shared by two worker processes', () => {
  it('keeps every turn of a conversation continued alternately by the two workers', async () => {
    const [a, b] = [queue('sessions-a'), queue('sessions-b')];
    const answers: string[] = [];
    for (let turn = 1; turn <= 6; turn++) {
      const producer = turn % 2 === 1 ? a : b;
      const result = await (
        await producer.enqueue('session', `message ${turn}`, { sessionId: 'conv-9' })
      ).result();
      answers.push(result.output);
    }
    expect(answers).toEqual([
      'A saw 1 messages',
      'B saw 2 messages',
      'A saw 3 messages',
      'B saw 4 messages',
      'A saw 5 messages',
      'B saw 6 messages',
    ]);
  }, 60_000);
});

describe('stopping a worker process', () => {
  it('on SIGTERM finishes its running job, stores the result, takes no new job and exits 0', async () => {
    // Worker B of the session test, the only worker of queue sessions-b.
    const worker = sessionWorkers[1]!;
    const producer = queue('sessions-b');
    const before = await producer.counts();
    const running = await producer.enqueue('slow', 'almost done');
    while (((await producer.counts()).active ?? 0) < 1) await new Promise((r) => setTimeout(r, 20));

    await worker.kill('SIGTERM');

    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('SIGTERM, finishing running jobs');
    expect((await running.result()).output).toBe('done: almost done (B)');
    await producer.enqueue('echo', 'after the worker left');
    expect(await producer.counts()).toMatchObject({
      waiting: 1,
      active: 0,
      completed: (before.completed ?? 0) + 1,
    });
  }, 60_000);
});
