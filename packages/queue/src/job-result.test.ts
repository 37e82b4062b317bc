import { createHook } from 'node:async_hooks';
import { Agent, ConfigError } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { Team } from '@swarm/handoff';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from './create-worker.js';
import { JobLostError, JobTimeoutError } from './queue-errors.js';
import { SwarmQueue } from './swarm-queue.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
let admin: Redis;
const open: { close(): Promise<void> }[] = [];
let queueCount = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.connection);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

const echoDesk = () =>
  Team.swarm({
    agents: {
      desk: new Agent({
        name: 'desk',
        model: new ScriptedModel([], {
          fallback: respond((request) => `done: ${request.messages.at(-1)?.content}`),
        }),
      }),
    },
    entryAgent: 'desk',
  });

function producer(options: { checkIntervalMs?: number; keepJobs?: { completed?: number } } = {}) {
  const queue = new SwarmQueue({ name: `r${++queueCount}`, connection: redis.connection, ...options });
  open.push(queue);
  return queue;
}

function worker(name: string) {
  const started = createWorker({ name, connection: redis.connection, topologies: { echo: echoDesk() } });
  open.push(started);
  return started;
}

/** Tracks the timers this package's producer code creates (by the stack that created them) until cleared or fired. */
function producerTimers() {
  const live = new Set<number>();
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout') return;
      const stack = new Error().stack ?? '';
      if (/queue\/src\/swarm-(job|queue)\.ts/.test(stack)) live.add(id);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return { count: () => live.size, stop: () => hook.disable() };
}

describe('job.result()', () => {
  it('rejects after timeoutMs with a JobTimeoutError naming the job, and a later result() still gets the answer', async () => {
    const queue = producer();
    const job = await queue.enqueue('echo', 'nobody works yet');

    const error = await job.result({ timeoutMs: 200 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(JobTimeoutError);
    expect(error).toMatchObject({ code: 'JOB_TIMEOUT', jobId: job.id, timeoutMs: 200 });
    expect((error as Error).message).toContain(job.id);
    worker(queue.name);
    expect((await job.result({ timeoutMs: 10_000 })).output).toBe('done: nobody works yet');
  });

  it('rejects with a JobLostError naming the job when Redis is flushed while the producer waits', async () => {
    const queue = producer({ checkIntervalMs: 50 });
    const job = await queue.enqueue('echo', 'about to vanish');
    const events = (async () => {
      const seen = [];
      for await (const event of job.events()) seen.push(event);
      return seen;
    })();

    await admin.flushall();

    const error = await job.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobLostError);
    expect(error).toMatchObject({ code: 'JOB_LOST', jobId: job.id });
    expect((error as Error).message).toContain(`Job "${job.id}" of queue "${queue.name}" is gone from Redis`);
    // The trace ends too, rather than waiting for ever.
    expect(await events).toEqual([]);
  });

  it("rejects with a JobLostError when the job's keys are deleted, and keeps waiting for the jobs still there", async () => {
    const queue = producer({ checkIntervalMs: 50 });
    const [lost, kept] = await Promise.all([
      queue.enqueue('echo', 'deleted by hand'),
      queue.enqueue('echo', 'still queued'),
    ]);

    await admin.del(`bull:${queue.name}:${lost.id}`);
    await admin.lrem(`bull:${queue.name}:wait`, 0, lost.id);

    await expect(lost.result()).rejects.toThrow(JobLostError);
    await expect(kept.result({ timeoutMs: 500 })).rejects.toThrow(JobTimeoutError);
    worker(queue.name);
    expect((await kept.result()).output).toBe('done: still queued');
  });

  // 100 jobs, each checked every millisecond: on a loaded 2-core machine that took past 15 s.
  it('resolves jobs that Redis forgets as soon as they finish (keepJobs 0), however often it checks', {
    timeout: 60_000,
  }, async () => {
    const queue = producer({ checkIntervalMs: 1, keepJobs: { completed: 0 } });
    worker(queue.name);
    const tasks = Array.from({ length: 100 }, (_, i) => `task ${i}`);

    const settled = await queue.batchedRun('echo', tasks);

    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.output : String(s.reason)))).toEqual(
      tasks.map((task) => `done: ${task}`),
    );
    expect(await queue.counts()).toMatchObject({ completed: 0 });
  });

  it('leaves no timer behind once the result is in, with or without a timeout', async () => {
    const queue = producer({ checkIntervalMs: 60_000 });
    worker(queue.name);
    const timers = producerTimers();
    try {
      const job = await queue.enqueue('echo', 'quick');
      const waiting = job.result({ timeoutMs: 60_000 });
      // The timeout and the producer's loss check run while it waits.
      expect(timers.count()).toBe(2);
      expect((await waiting).output).toBe('done: quick');
      await new Promise((resolve) => setImmediate(resolve));

      expect(timers.count()).toBe(0);
    } finally {
      timers.stop();
    }
  });

  it('refuses a timeoutMs that is not a positive number, and a bad checkIntervalMs', async () => {
    const queue = producer();
    const job = await queue.enqueue('echo', 'x');
    await expect(job.result({ timeoutMs: 0 })).rejects.toThrow(ConfigError);
    await expect(job.result({ timeoutMs: Number.NaN })).rejects.toThrow(
      /timeoutMs must be a positive number/,
    );
    expect(() => new SwarmQueue({ name: 'x', connection: redis.connection, checkIntervalMs: 0 })).toThrow(
      /checkIntervalMs must be an integer >= 1/,
    );
  });
});
