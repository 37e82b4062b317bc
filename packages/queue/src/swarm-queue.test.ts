import {
  AbortError,
  Agent,
  BudgetExceededError,
  ConfigError,
  type Message,
  ModelError,
  messageText,
  type RunOptions,
  SwarmError,
  type SwarmEvent,
  type Topology,
  type TopologyResult,
  tool,
} from '@swarm/core';
import { fail, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { historyItemSchema, Team } from '@swarm/handoff';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker, type SwarmWorker } from './create-worker.js';
import type { QueuedRunOptions } from './job-data.js';
import { RedisSessionStore } from './redis-session-store.js';
import { SwarmQueue } from './swarm-queue.js';
import { type RedisServer, startRedisServer } from './testing/redis-server.js';

let redis: RedisServer;
const open: { close(): Promise<void> }[] = [];
let queueCount = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});
afterAll(async () => {
  await redis?.stop();
});

const lastUserText = (messages: Message[]) =>
  messageText(messages.filter((message) => message.role === 'user').at(-1) ?? { content: '' });

function desk(model: ScriptedModel, tools: ReturnType<typeof tool>[] = []) {
  return Team.swarm({ agents: { desk: new Agent({ name: 'desk', model, tools }) }, entryAgent: 'desk' });
}

/** A queue and one in-process worker on a fresh queue name. */
function setup(topologies: Record<string, Topology>, queueOptions: { attempts?: number } = {}) {
  const name = `q${++queueCount}`;
  const queue = new SwarmQueue({
    name,
    connection: redis.connection,
    attempts: queueOptions.attempts ?? 3,
    backoff: { type: 'fixed', delayMs: 10 },
  });
  const worker: SwarmWorker = createWorker({ name, connection: redis.url, topologies, concurrency: 4 });
  open.push(worker, queue);
  return { queue, worker };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A topology that counts its runs and fails each with `error`. */
function failing(error: Error): Topology & { runs: number } {
  return {
    type: 'Failing',
    name: 'failing',
    runs: 0,
    async run(): Promise<TopologyResult> {
      this.runs++;
      throw error;
    },
    stream() {
      throw new Error('not used');
    },
  };
}

describe('SwarmQueue and createWorker', () => {
  it("runs an enqueued task on a worker and resolves with the topology's result and its trace", async () => {
    const model = new ScriptedModel([], {
      fallback: respond((req) => `Answer to: ${lastUserText(req.messages)}`),
    });
    const { queue } = setup({ helpdesk: desk(model) });

    const job = await queue.enqueue('helpdesk', 'I was charged twice', { events: true });
    const trace: SwarmEvent[] = [];
    for await (const event of job.events()) trace.push(event);
    const result = await job.result();

    expect(result).toMatchObject({
      output: 'Answer to: I was charged twice',
      lastAgent: 'desk',
      llmCalls: 1,
    });
    expect(trace[0]).toMatchObject({ type: 'run.start', task: 'I was charged twice' });
    expect(trace.at(-1)).toMatchObject({ type: 'run.end', output: 'Answer to: I was charged twice' });
    expect(trace.map((event) => event.type)).toContain('model.response');
  });

  it('keeps only as many finished jobs as keepJobs says', async () => {
    const model = new ScriptedModel([], { fallback: respond(() => 'ok') });
    const name = `q${++queueCount}`;
    const queue = new SwarmQueue({ name, connection: redis.connection, keepJobs: { completed: 2 } });
    open.push(
      createWorker({ name, connection: redis.connection, topologies: { helpdesk: desk(model) } }),
      queue,
    );

    await queue.batchedRun('helpdesk', ['a', 'b', 'c', 'd', 'e'], { concurrency: 1 });

    expect(await queue.counts()).toMatchObject({ completed: 2 });
  });

  it('enqueues idempotently with a jobId: the second enqueue returns the same run', async () => {
    const model = new ScriptedModel([], {
      fallback: respond((req) => `Answer ${lastUserText(req.messages)}`),
    });
    const { queue } = setup({ helpdesk: desk(model) });

    const first = await queue.enqueue('helpdesk', 'once', { jobId: 'order-42' });
    const firstResult = await first.result();
    const second = await queue.enqueue('helpdesk', 'once', { jobId: 'order-42' });

    expect(second.id).toBe('order-42');
    expect(await second.result()).toEqual(firstResult);
    expect(model.calls).toHaveLength(1);
  });

  it('retries a retryable 429 with backoff and succeeds', async () => {
    const rateLimited = new ModelError('429 Too Many Requests', {
      provider: 'openai',
      status: 429,
      retryable: true,
    });
    const model = new ScriptedModel([fail(rateLimited), reply('Done after a retry.')]);
    const { queue } = setup({ helpdesk: desk(model) });

    const result = await (await queue.enqueue('helpdesk', 'hello')).result();

    expect(result.output).toBe('Done after a retry.');
    expect(model.calls).toHaveLength(2);
  });

  it('gives up on a retryable error after the attempts, rejecting with the same ModelError details', async () => {
    const rateLimited = new ModelError('429 Too Many Requests', {
      provider: 'openai',
      status: 429,
      retryable: true,
    });
    const model = new ScriptedModel([], { fallback: fail(rateLimited) });
    const { queue } = setup({ helpdesk: desk(model) }, { attempts: 2 });

    const error = await (await queue.enqueue('helpdesk', 'hello')).result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'MODEL', status: 429, provider: 'openai', retryable: true });
    expect((error as Error).message).toBe('429 Too Many Requests');
    expect(model.calls).toHaveLength(2);
  });

  it('never retries a ConfigError, and rebuilds it as a ConfigError', async () => {
    const broken = failing(new ConfigError('Agent "desk": model must be a Model or a model string.'));
    const { queue } = setup({ broken });

    const error = await (await queue.enqueue('broken', 'hello')).result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'CONFIG',
      message: 'Agent "desk": model must be a Model or a model string.',
    });
    expect(broken.runs).toBe(1);
  });

  it('passes JSON run options to the topology: a budget stop fails once, as a BudgetExceededError', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks an invoice up.',
      parameters: z.object({ id: z.string() }),
      execute: () => 'paid',
    });
    const model = new ScriptedModel([toolCall('lookup', { id: '7' }), reply('It is paid.')]);
    const { queue } = setup({ helpdesk: desk(model, [lookup]) });

    const job = await queue.enqueue('helpdesk', 'Is invoice 7 paid?', {
      runOptions: { budget: { maxCalls: 1 } },
      events: true,
    });
    const trace = collect(job.events());
    const error = await job.result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ code: 'BUDGET_EXCEEDED', reason: 'budget:calls' });
    expect(model.calls).toHaveLength(1);
    // The trace reaches the producer closed, with the error's code.
    expect((await trace)[0]?.type).toBe('run.start');
    expect((await trace).at(-1)).toMatchObject({ type: 'run.error', code: 'BUDGET_EXCEEDED' });
  });

  it('passes sessionId to the topology run', async () => {
    const seen: (string | undefined)[] = [];
    const recorder: Topology = {
      type: 'Recorder',
      name: 'recorder',
      async run(task: string, options?: RunOptions) {
        seen.push((options as { sessionId?: string } | undefined)?.sessionId);
        return {
          output: task,
          usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, totalTokens: 0 },
          llmCalls: 0,
        };
      },
      stream() {
        throw new Error('not used');
      },
    };
    const { queue } = setup({ recorder });

    await (await queue.enqueue('recorder', 'hi', { sessionId: 'conv-7' })).result();

    expect(seen).toEqual(['conv-7']);
  });

  it('saves a session turn once when its job runs again after the save (a retry after a crash-like failure)', async () => {
    const seen: string[][] = [];
    const model = new ScriptedModel([], {
      fallback: respond((req) => {
        seen.push(req.messages.filter((m) => m.role === 'user').map(messageText));
        return 'We will refund the second charge.';
      }),
    });
    const sessions = new RedisSessionStore({ connection: redis.connection, itemSchema: historyItemSchema });
    open.push(sessions);
    const team = Team.swarm({
      agents: { desk: new Agent({ name: 'desk', model }) },
      entryAgent: 'desk',
      sessions,
    });
    // The turn is saved, then the attempt fails as a dying worker's would: the job runs again.
    let attempts = 0;
    const flaky: Topology = {
      type: 'Flaky',
      name: 'flaky',
      async run(task, options) {
        const result = await team.run(task, options);
        if (++attempts === 1)
          throw new ModelError('connection reset', { provider: 'openai', retryable: true });
        return result;
      },
      stream() {
        throw new Error('not used');
      },
    };
    const { queue } = setup({ flaky });

    const result = await (
      await queue.enqueue('flaky', 'I was charged twice', { sessionId: 'conv-retried' })
    ).result();

    expect(result.output).toBe('We will refund the second charge.');
    expect(attempts).toBe(2);
    const saved = await sessions.get('conv-retried');
    expect(saved?.history.map((item) => item.type)).toEqual(['request', 'text']);
    expect(saved?.version).toBe(1);
    // The second attempt read the session as the first did, so its model call replayed from the journal.
    expect(seen).toEqual([['I was charged twice']]);
    expect(result).toMatchObject({ replayedCalls: 1, liveCalls: 0 });
  });

  it('fails a job for a topology the worker does not have with a ConfigError naming the ones it has', async () => {
    const model = new ScriptedModel([]);
    const { queue } = setup({ helpdesk: desk(model) });

    const error = await (await queue.enqueue('billing', 'hello')).result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/no topology named "billing".*helpdesk/);
  });

  it('batchedRun returns settled results in input order, a failed run kept in its place', async () => {
    const model = new ScriptedModel([], {
      fallback: respond((req) => {
        const task = lastUserText(req.messages);
        if (task === 'task 3') throw new ModelError('bad request', { provider: 'openai', status: 400 });
        return `done ${task}`;
      }),
    });
    const { queue } = setup({ helpdesk: desk(model) });
    const tasks = Array.from({ length: 8 }, (_, i) => `task ${i}`);

    for (const concurrency of [undefined, 3]) {
      const settled = await queue.batchedRun('helpdesk', tasks, concurrency ? { concurrency } : {});
      expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.output : 'failed'))).toEqual(
        tasks.map((task) => (task === 'task 3' ? 'failed' : `done ${task}`)),
      );
      const failed = settled[3];
      expect(
        failed?.status === 'rejected' && SwarmError.isInstance(failed.reason) && failed.reason.code,
      ).toBe('MODEL');
    }
  });

  it('rejects results not received yet with an AbortError when the producer closes', async () => {
    const queue = new SwarmQueue({ name: `q${++queueCount}`, connection: redis.connection });
    const job = await queue.enqueue('helpdesk', 'nobody will take this');

    await queue.close();

    await expect(job.result()).rejects.toBeInstanceOf(AbortError);
    expect([...(await collect(job.events()))]).toEqual([]);
  });

  it('refuses run options that cannot cross Redis at enqueue, naming the field, and enqueues nothing', async () => {
    const queue = new SwarmQueue({ name: `q${++queueCount}`, connection: redis.connection });
    open.push(queue);
    const enqueue = (runOptions: unknown) =>
      queue.enqueue('helpdesk', 'hello', { runOptions: runOptions as QueuedRunOptions });

    await expect(enqueue({ limiter: { concurrency: 2 } })).rejects.toThrow(ConfigError);
    await expect(enqueue({ limiter: { concurrency: 2 } })).rejects.toThrow(
      'SwarmQueue.enqueue: runOptions.limiter is not accepted: a Limiter holds in one process; give every worker the same rateLimit (createWorker) instead.',
    );
    await expect(enqueue({ parent: { runId: 'r1' } })).rejects.toThrow(
      /runOptions\.parent is not accepted: a queued run cannot join a run of another process/,
    );
    await expect(enqueue({ budget: { maxCalls: 2 }, temperature: 0.2 })).rejects.toThrow(
      /runOptions\.temperature is not an option of a queued run \(it takes budget and textDeltas\)/,
    );
    await expect(enqueue({ budget: { maxCalls: '3' } })).rejects.toThrow(/runOptions\.budget\.maxCalls: /);
    await expect(
      queue.batchedRun('helpdesk', ['a'], { runOptions: { signal: 'x' } as unknown as QueuedRunOptions }),
    ).rejects.toThrow(/SwarmQueue\.batchedRun: runOptions\.signal is not accepted/);
    expect(await queue.counts()).toMatchObject({ waiting: 0, active: 0, failed: 0 });
  });

  it('fails a job whose run options another producer wrote wrong, naming the job and the field, without running it', async () => {
    const broken = failing(new Error('must not run'));
    const { queue } = setup({ broken });
    // Added without SwarmQueue's checks, as another producer might.
    const raw = new Queue(queue.name, { connection: redis.connection });
    open.push(raw);
    await raw.add(
      'broken',
      { topology: 'broken', task: 'hi', runOptions: { limiter: {}, parent: {} } },
      { jobId: 'raw-1' },
    );

    const error = await (await queue.enqueue('broken', 'hi', { jobId: 'raw-1' })).result().catch((e) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^swarm worker "q\d+": job "raw-1" cannot run: runOptions\.limiter is not accepted: .*; runOptions\.parent is not accepted: /,
    );
    expect(broken.runs).toBe(0);
  });

  it('rejects bad options with a ConfigError naming the option', () => {
    expect(() => new SwarmQueue({ name: 'a:b', connection: redis.connection })).toThrow(/name must be/);
    expect(() => new SwarmQueue({ name: 'a', connection: 'http://x' })).toThrow(/redis:\/\//);
    expect(() => new SwarmQueue({ name: 'a', connection: redis.connection, attempts: 0 })).toThrow(
      /attempts/,
    );
    const topologies = { helpdesk: desk(new ScriptedModel([])) };
    expect(() =>
      createWorker({ name: 'a', connection: redis.connection, topologies, concurrency: 0 }),
    ).toThrow(ConfigError);
    expect(() =>
      createWorker({ name: 'a', connection: redis.connection, topologies, rateLimit: { max: 5, perMs: 0 } }),
    ).toThrow(/rateLimit must be \{ max, perMs \}/);
    expect(() => createWorker({ name: 'a', connection: redis.connection, topologies: {} })).toThrow(
      /topologies/,
    );
  });
});
