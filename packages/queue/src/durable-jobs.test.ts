import {
  Agent,
  ConfigError,
  ModelError,
  type ModelRequest,
  RunPausedError,
  type Topology,
  tool,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { Team } from '@swarm/handoff';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker, type SwarmWorkerOptions } from './create-worker.js';
import { journalPrefix } from './durable-job.js';
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

// A refund desk's model: asks for a refund of 40 once, then reports what the tool said.
function deskModel(): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      const result = request.messages.findLast((m) => m.role === 'tool');
      if (result) return `Done: ${result.content}`;
      return { text: '', toolCalls: [{ id: 'call_1', name: 'refund', arguments: { amount: 40 } }] };
    }),
  });
}

/** A refund desk whose refund tool needs approval; `executed` counts the refunds made. */
function refundDesk(model: ScriptedModel, executed: number[]) {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount to the customer.',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      executed.push(amount);
      return `refunded ${amount}`;
    },
  });
  return Team.swarm({
    agents: { desk: new Agent({ name: 'desk', model, tools: [refund] }) },
    entryAgent: 'desk',
  });
}

function producer() {
  const queue = new SwarmQueue({
    name: `d${++queueCount}`,
    connection: redis.connection,
    backoff: { type: 'fixed', delayMs: 10 },
  });
  open.push(queue);
  return queue;
}

async function worker(
  name: string,
  topologies: Record<string, Topology>,
  options: Partial<SwarmWorkerOptions> = {},
) {
  const started = createWorker({ name, connection: redis.connection, topologies, ...options });
  open.push(started);
  await started.ready();
  return started;
}

async function until(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('durable jobs', () => {
  it('keeps a paused job with its pending calls, and approve resumes it on another worker without repeating a call', async () => {
    const queue = producer();
    const executed: number[] = [];
    const [modelA, modelB] = [deskModel(), deskModel()];
    const workerA = await worker(queue.name, { refunds: refundDesk(modelA, executed) });
    const job = await queue.enqueue('refunds', 'Refund my double charge', { jobId: 'refund-7' });

    const pause = await job.result().catch((e: unknown) => e);

    expect(pause).toBeInstanceOf(RunPausedError);
    const pending = (pause as RunPausedError).pending;
    expect(pending).toEqual([
      expect.objectContaining({
        runId: 'refund-7',
        agent: 'desk',
        tool: 'refund',
        arguments: { amount: 40 },
      }),
    ]);
    expect(executed).toEqual([]);
    // Kept, visible and out of every trim: a delayed job whose data lists what it waits for.
    expect(await queue.counts()).toMatchObject({ delayed: 1, failed: 0, completed: 0 });
    const data = JSON.parse((await admin.hget(`bull:${queue.name}:refund-7`, 'data'))!);
    expect(data.paused.pending).toEqual(pending);
    // Another producer holding the job id sees the pause too.
    await expect(
      (await producer2(queue.name).enqueue('refunds', 'x', { jobId: 'refund-7' })).result(),
    ).rejects.toThrow(RunPausedError);

    await workerA.close();
    await worker(queue.name, { refunds: refundDesk(modelB, executed) });
    const resumed = await queue.approve(
      'refund-7',
      { [pending[0]!.id]: { approved: true } },
      { events: true },
    );
    const result = await resumed.result();
    const trace = [];
    for await (const event of resumed.events()) trace.push(event);

    expect(resumed.id).toBe('refund-7');
    expect(result).toMatchObject({ output: 'Done: refunded 40', replayedCalls: 1, liveCalls: 1 });
    expect(executed).toEqual([40]);
    expect(modelA.calls).toHaveLength(1);
    expect(modelB.calls).toHaveLength(1);
    // The resumed attempt's trace, the replayed call marked.
    expect(trace.filter((e) => e.type === 'model.response').map((e) => e.replayed === true)).toEqual([
      true,
      false,
    ]);
    expect(trace.at(-1)?.type).toBe('run.end');
    // Finished: its journal is gone.
    await until(async () => (await admin.exists(`${journalPrefix(queue.name)}refund-7`)) === 0);
  });

  it('applies the first of two decisions given at the same moment, refuses the second naming the first, and journals who decided', async () => {
    const queue = producer();
    const executed: number[] = [];
    await worker(queue.name, { refunds: refundDesk(deskModel(), executed) });
    const job = await queue.enqueue('refunds', 'Refund please', { jobId: 'race-1' });
    const { pending } = (await job.result().catch((e: unknown) => e)) as RunPausedError;
    const id = pending[0]!.id;
    // Not resumed before both have decided: the worker is slow to take the job up.
    const [approve, reject] = await Promise.allSettled([
      queue.approve(job.id, { [id]: { approved: true } }, { by: 'ana' }),
      producer2(queue.name).approve(job.id, { [id]: { approved: false, message: 'No.' } }, { by: 'bo' }),
    ]);
    const won = approve.status === 'fulfilled' ? approve : reject;
    const lost = approve.status === 'fulfilled' ? reject : approve;
    expect(won.status).toBe('fulfilled');
    expect(lost.status).toBe('rejected');
    const winner = won === approve ? 'ana' : 'bo';
    const error = (lost as PromiseRejectedResult).reason;
    expect(error).toMatchObject({ code: 'APPROVAL_CONFLICT', approvalId: id, decided: { by: winner } });
    expect((error as Error).message).toContain(`by ${winner}`);
    const result = await (
      won as PromiseFulfilledResult<Awaited<ReturnType<typeof queue.approve>>>
    ).value.result();
    // The winner's decision is the one applied.
    if (winner === 'ana') {
      expect(executed).toEqual([40]);
      expect(result.output).toBe('Done: refunded 40');
    } else {
      expect(executed).toEqual([]);
      expect(result.output).toBe('Done: No.');
    }
  });

  it('journals the decision with who decided and when, before the call runs', async () => {
    const queue = producer();
    const journalKey = `${journalPrefix(queue.name)}who-1`;
    let seen: unknown[] = [];
    // The refund reads the job's journal as it runs: the decision is there already.
    const refund = tool({
      name: 'refund',
      description: 'Refunds an amount to the customer.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: async ({ amount }) => {
        const list = await admin.lrange(journalKey, 0, -1);
        seen = list.map((line) => JSON.parse(line)).filter((entry) => entry.type === 'decision');
        return `refunded ${amount}`;
      },
    });
    const desk = Team.swarm({
      agents: { desk: new Agent({ name: 'desk', model: deskModel(), tools: [refund] }) },
      entryAgent: 'desk',
    });
    await worker(queue.name, { refunds: desk });
    const job = await queue.enqueue('refunds', 'Refund please', { jobId: 'who-1' });
    const { pending } = (await job.result().catch((e: unknown) => e)) as RunPausedError;
    const resumed = await queue.approve(
      job.id,
      { [pending[0]!.id]: { approved: true } },
      { by: 'ana@example.com' },
    );
    expect((await resumed.result()).output).toBe('Done: refunded 40');
    expect(seen).toEqual([
      {
        type: 'decision',
        key: expect.any(String),
        id: pending[0]!.id,
        approved: true,
        by: 'ana@example.com',
        at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);
  });

  it('answers a rejected call with the message, and the tool never runs', async () => {
    const queue = producer();
    const executed: number[] = [];
    await worker(queue.name, { refunds: refundDesk(deskModel(), executed) });
    const job = await queue.enqueue('refunds', 'Refund please');
    const { pending } = (await job.result().catch((e: unknown) => e)) as RunPausedError;

    const resumed = await queue.approve(job.id, {
      [pending[0]!.id]: { approved: false, message: 'Refunds over 30 need a manager.' },
    });

    expect((await resumed.result()).output).toMatch(/^Done: .*Refunds over 30 need a manager\./);
    expect(executed).toEqual([]);
  });

  it('retries a resumed job that failed after its approved call ran, without running the call again', async () => {
    const queue = producer();
    const executed: number[] = [];
    let failures = 0;
    const model = new ScriptedModel([], {
      fallback: respond((request: ModelRequest) => {
        const result = request.messages.findLast((m) => m.role === 'tool');
        if (!result)
          return { text: '', toolCalls: [{ id: 'call_1', name: 'refund', arguments: { amount: 40 } }] };
        if (failures++ === 0)
          throw new ModelError('502 Bad Gateway', { provider: 'openai', status: 502, retryable: true });
        return `Done: ${result.content}`;
      }),
    });
    await worker(queue.name, { refunds: refundDesk(model, executed) });
    const job = await queue.enqueue('refunds', 'Refund please');
    const { pending } = (await job.result().catch((e: unknown) => e)) as RunPausedError;

    const resumed = await queue.approve(job.id, { [pending[0]!.id]: { approved: true } });

    expect((await resumed.result()).output).toBe('Done: refunded 40');
    expect(executed).toEqual([40]);
    expect(failures).toBe(2);
  });

  it('refuses approvals it cannot apply with a ConfigError, writing nothing', async () => {
    const queue = producer();
    await worker(queue.name, {
      refunds: refundDesk(deskModel(), []),
      echo: refundDesk(new ScriptedModel([], { fallback: respond(() => 'hi') }), []),
    });
    const job = await queue.enqueue('refunds', 'Refund please');
    await job.result().catch(() => undefined);
    const before = await admin.hget(`bull:${queue.name}:${job.id}`, 'data');

    await expect(queue.approve(job.id, { 'not-an-id': { approved: true } })).rejects.toThrow(
      new RegExp(
        `job "${job.id}" does not wait for "not-an-id" \\(it waits for [0-9a-f]{16}\\); nothing was written`,
      ),
    );
    await expect(queue.approve(job.id, { x: { approved: 'yes' } } as never)).rejects.toThrow(ConfigError);
    await expect(queue.approve(job.id, {})).rejects.toThrow(/at least one decision/);
    await expect(queue.approve('no-such-job', { x: { approved: true } })).rejects.toThrow(
      `SwarmQueue.approve: queue "${queue.name}" has no job "no-such-job".`,
    );
    expect(await admin.hget(`bull:${queue.name}:${job.id}`, 'data')).toBe(before);
    const done = await queue.enqueue('echo', 'hello');
    await done.result();
    await expect(queue.approve(done.id, { x: { approved: true } })).rejects.toThrow(
      `job "${done.id}" is not paused (it is completed)`,
    );
  });

  it('replays the finished calls when a job runs again after a retryable failure', async () => {
    const queue = producer();
    const executed: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks the order up.',
      parameters: z.object({ order: z.string() }),
      execute: ({ order }) => {
        executed.push(order);
        return `order ${order} is paid`;
      },
    });
    let failed = false;
    const model = new ScriptedModel([], {
      fallback: respond((request: ModelRequest) => {
        const result = request.messages.findLast((m) => m.role === 'tool');
        if (!result)
          return { text: '', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { order: 'A1' } }] };
        if (!failed) {
          failed = true;
          throw new ModelError('503 Service Unavailable', {
            provider: 'openai',
            status: 503,
            retryable: true,
          });
        }
        return `It is paid (${result.content}).`;
      }),
    });
    await worker(queue.name, {
      desk: Team.swarm({
        agents: { desk: new Agent({ name: 'desk', model, tools: [lookup] }) },
        entryAgent: 'desk',
      }),
    });

    const result = await (await queue.enqueue('desk', 'Is A1 paid?')).result();

    expect(result).toMatchObject({
      output: 'It is paid (order A1 is paid).',
      replayedCalls: 1,
      liveCalls: 1,
    });
    // The first call once, the second twice (its first try failed), the tool once.
    expect(model.calls).toHaveLength(3);
    expect(executed).toEqual(['A1']);
  });

  it('checks job ids as run ids: at enqueue, and in the worker for a job another producer added', async () => {
    const queue = producer();
    await expect(queue.enqueue('desk', 'x', { jobId: 'orders/42' })).rejects.toThrow(
      /SwarmQueue\.enqueue: jobId is the run's id in the workers' journal: runId must be 1 to 128 letters/,
    );
    await worker(queue.name, { desk: refundDesk(deskModel(), []) });
    const raw = new Queue(queue.name, { connection: redis.connection });
    open.push(raw);
    await raw.add('desk', { topology: 'desk', task: 'x' }, { jobId: 'has space', attempts: 1 });
    const failedJob = await (async () => {
      await until(async () => (await raw.getJobState('has space')) === 'failed');
      return raw.getJob('has space');
    })();
    expect(failedJob?.failedReason).toMatch(/job \\"has space\\" cannot be journaled: its id is the run id/);
  });

  it('without a journal, starts every attempt over and fails a pause, which cannot be approved', async () => {
    const queue = producer();
    await worker(queue.name, { refunds: refundDesk(deskModel(), []) }, { journal: false });
    const job = await queue.enqueue('refunds', 'Refund please');

    const error = await job.result().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RunPausedError);
    expect(await queue.counts()).toMatchObject({ failed: 1, delayed: 0 });
    expect(await admin.keys(`${journalPrefix(queue.name)}*`)).toEqual([]);
    await expect(
      queue.approve(job.id, { [(error as RunPausedError).pending[0]!.id]: { approved: true } }),
    ).rejects.toThrow(/is not paused \(it is failed\)/);
  });
});

function producer2(name: string) {
  const queue = new SwarmQueue({ name, connection: redis.connection });
  open.push(queue);
  return queue;
}
