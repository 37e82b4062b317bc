import { Agent, ModelError, type SwarmEvent, type Topology } from '@swarm/core';
import { Gate, respond, ScriptedModel } from '@swarm/core/testing';
import { Team } from '@swarm/handoff';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from './create-worker.js';
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

function desk(gate?: Gate) {
  const model = new ScriptedModel([], {
    fallback: respond(async (request) => {
      await gate?.wait();
      return `done: ${request.messages.at(-1)?.content}`;
    }),
  });
  return Team.swarm({ agents: { desk: new Agent({ name: 'desk', model }) }, entryAgent: 'desk' });
}

function producer() {
  const queue = new SwarmQueue({
    name: `w${++queueCount}`,
    connection: redis.connection,
    backoff: { type: 'fixed', delayMs: 10 },
  });
  open.push(queue);
  return queue;
}

async function worker(name: string, topologies: Record<string, Topology>) {
  const started = createWorker({ name, connection: redis.connection, topologies });
  open.push(started);
  await started.ready();
  return started;
}

async function collect(events: AsyncIterable<SwarmEvent>): Promise<SwarmEvent[]> {
  const out: SwarmEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The progress entries (published run events) of a job in the queue's event stream. */
async function publishedEvents(queue: string, jobId: string): Promise<number> {
  const entries = await admin.xrange(`bull:${queue}:events`, '-', '+');
  return entries.filter(([, fields]) => fields.includes('progress') && fields.includes(jobId)).length;
}

const types = (trace: SwarmEvent[]) => trace.map((event) => event.type);

describe('run events over the queue', () => {
  it('publishes nothing for a job nobody reads the events of, and every event of one that is read', async () => {
    const queue = producer();
    await worker(queue.name, { echo: desk() });

    const quiet = await queue.enqueue('echo', 'nobody watches');
    await quiet.result();
    const watched = await queue.enqueue('echo', 'someone watches', { events: true });
    const trace = await collect(watched.events());

    expect(await publishedEvents(queue.name, quiet.id)).toBe(0);
    expect(types(trace)).toEqual([
      'run.start',
      'agent.start',
      'model.request',
      'model.response',
      'agent.end',
      'run.end',
    ]);
    expect(await publishedEvents(queue.name, watched.id)).toBe(trace.length);
  });

  it('keeps every event of a job enqueued with events: true, even one read after it finished', async () => {
    const queue = producer();
    await worker(queue.name, { echo: desk() });

    const job = await queue.enqueue('echo', 'fast', { events: true });
    await job.result();

    expect(types(await collect(job.events()))).toEqual([
      'run.start',
      'agent.start',
      'model.request',
      'model.response',
      'agent.end',
      'run.end',
    ]);
  });

  it('gives a reader who starts while the run is under way the whole attempt from run.start', async () => {
    const gate = new Gate();
    const queue = producer();
    await worker(queue.name, { slow: desk(gate) });
    const job = await queue.enqueue('slow', 'watched late');
    await gate.until(1);

    const trace = collect(job.events());
    await new Promise((resolve) => setTimeout(resolve, 100));
    gate.open();

    expect(types(await trace)).toEqual([
      'run.start',
      'agent.start',
      'model.request',
      'model.response',
      'agent.end',
      'run.end',
    ]);
    expect((await job.result()).output).toBe('done: watched late');
  });

  it('honours a watch that began before any worker took the job', async () => {
    const queue = producer();
    const job = await queue.enqueue('echo', 'watched early');
    const trace = collect(job.events());
    await new Promise((resolve) => setTimeout(resolve, 100));

    await worker(queue.name, { echo: desk() });

    expect(types(await trace)).toEqual([
      'run.start',
      'agent.start',
      'model.request',
      'model.response',
      'agent.end',
      'run.end',
    ]);
  });

  it('shows every attempt of a retried job that is watched', async () => {
    const queue = producer();
    let attempts = 0;
    const flaky: Topology = {
      type: 'Flaky',
      name: 'flaky',
      async run(task, options) {
        if (++attempts === 1) {
          options?.onEvent?.({ type: 'run.start', runId: 'a1', at: new Date().toISOString() } as SwarmEvent);
          throw new ModelError('503', { provider: 'openai', status: 503, retryable: true });
        }
        return desk().run(task, options);
      },
      stream() {
        throw new Error('not used');
      },
    };
    const job = await queue.enqueue('flaky', 'retried');
    const trace = collect(job.events());
    await worker(queue.name, { flaky });

    expect(types(await trace).filter((type) => type === 'run.start')).toHaveLength(2);
    expect((await trace).at(-1)?.type).toBe('run.end');
  });
});
