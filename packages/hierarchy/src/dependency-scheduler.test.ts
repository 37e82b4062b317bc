import { AbortError, BudgetExceededError, isRunStop, RunPausedError } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { runByDependencies } from './dependency-scheduler.js';

describe('runByDependencies', () => {
  it('runs independent items together, up to the concurrency, and dependents after', async () => {
    const gate = new Gate();
    const startedOrder: string[] = [];
    const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd', dependsOn: ['a', 'b'] }];
    const running = runByDependencies(
      items,
      async (item) => {
        startedOrder.push(item.id);
        await gate.wait();
        return item.id.toUpperCase();
      },
      { concurrency: 2 },
    );
    await gate.until(2);
    expect(startedOrder).toEqual(['a', 'b']);
    gate.open();
    const { outcomes } = await running;
    expect(startedOrder).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.map((o) => (o.status === 'done' ? o.value : o.status))).toEqual(['A', 'B', 'C', 'D']);
  });

  it('starts the highest-priority ready item first, ties in input order', async () => {
    const order: string[] = [];
    await runByDependencies(
      [
        { id: 'low', priority: 1 },
        { id: 'high', priority: 5 },
        { id: 'mid', priority: 3 },
        { id: 'alsoHigh', priority: 5 },
      ],
      async (item) => {
        order.push(item.id);
      },
      { concurrency: 1 },
    );
    expect(order).toEqual(['high', 'alsoHigh', 'mid', 'low']);
  });

  it('blocks the whole chain below a failed item and keeps its siblings', async () => {
    const ran: string[] = [];
    const { outcomes } = await runByDependencies(
      [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['b'] }, { id: 'd' }],
      async (item) => {
        ran.push(item.id);
        if (item.id === 'a') throw new Error('a broke');
        return item.id;
      },
    );
    expect(ran).toEqual(['a', 'd']);
    expect(outcomes[0]).toMatchObject({ status: 'failed', error: new Error('a broke') });
    expect(outcomes[1]).toEqual({ status: 'blocked', dependency: 'a' });
    expect(outcomes[2]).toEqual({ status: 'blocked', dependency: 'b' });
    expect(outcomes[3]).toEqual({ status: 'done', value: 'd' });
  });

  it('stops starting items after a fatal error and reports it', async () => {
    const fatal = new Error('budget spent');
    const { outcomes, stoppedBy } = await runByDependencies(
      [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
      async (item) => {
        if (item.id === 'a') return 'a';
        throw fatal;
      },
      { concurrency: 1, isFatal: (e) => e === fatal },
    );
    expect(stoppedBy).toBe(fatal);
    expect(outcomes).toEqual([{ status: 'done', value: 'a' }, { status: 'notRun' }, { status: 'notRun' }]);
  });

  it('lets the items a pause does not hold go on to the end, and returns every pause as one', async () => {
    const waiting = (id: string) =>
      new RunPausedError([{ id, runId: 'r', path: ['H'], agent: id, tool: 'refund', arguments: {} }]);
    const ran: string[] = [];
    const { outcomes, stoppedBy } = await runByDependencies(
      [
        { id: 'a' },
        { id: 'b', dependsOn: ['a'] },
        { id: 'c' },
        { id: 'd', dependsOn: ['c'] },
        { id: 'e' },
        { id: 'f', dependsOn: ['e'] },
      ],
      async (item) => {
        ran.push(item.id);
        if (item.id === 'a' || item.id === 'e') throw waiting(item.id);
        return item.id;
      },
      { concurrency: 1, isFatal: isRunStop },
    );
    expect(ran).toEqual(['a', 'c', 'd', 'e']);
    expect(outcomes.map((o) => o.status)).toEqual(['notRun', 'notRun', 'done', 'done', 'notRun', 'notRun']);
    expect((stoppedBy as RunPausedError).pending.map((p) => p.id)).toEqual(['a', 'e']);
  });

  it('reports a pause over a budget stop, and an abort over both', async () => {
    const pause = new RunPausedError([
      { id: 'p', runId: 'r', path: [], agent: 'x', tool: 't', arguments: {} },
    ]);
    const budget = new BudgetExceededError('budget:calls', 'spent');
    const abort = new AbortError();
    const run = (errors: Record<string, unknown>) =>
      runByDependencies(
        [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        async (item) => {
          if (errors[item.id]) throw errors[item.id];
          return item.id;
        },
        { isFatal: isRunStop },
      );
    expect((await run({ a: budget, b: pause })).stoppedBy).toBe(pause);
    expect((await run({ a: pause, b: abort, c: budget })).stoppedBy).toBe(abort);
  });
});
