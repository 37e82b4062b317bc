import { describe, expect, it } from 'vitest';
import type { Settled } from '../contracts/model.js';
import type { PendingApproval } from './approval.js';
import { mapConcurrent, mapSettled } from './concurrency.js';
import { AbortError, BudgetExceededError, ModelError, RunPausedError } from './errors.js';
import { interruptionFields, isRunStop, settledStop } from './run-stop.js';

const calls = new BudgetExceededError('budget:calls', 'The run has no calls left.');
const tokens = new BudgetExceededError('budget:tokens', 'The run has no tokens left.');
const failed = new ModelError('The provider said no.', { status: 500, provider: 'test' });

const waiting = (id: string): PendingApproval => ({
  id,
  runId: 'r',
  path: ['Topology'],
  agent: 'clerk',
  tool: 'refund',
  arguments: {},
});
const pauseA = new RunPausedError([waiting('a')]);
const pauseB = new RunPausedError([waiting('b'), waiting('c')]);

const answered = (value: string): Settled<string> => ({ status: 'fulfilled', value });
const rejected = (reason: unknown): Settled<string> => ({ status: 'rejected', reason });

describe('isRunStop', () => {
  it('is true for an abort, a pause and a budget refusal of either kind', () => {
    expect(isRunStop(new AbortError())).toBe(true);
    expect(isRunStop(pauseA)).toBe(true);
    expect(isRunStop(calls)).toBe(true);
    expect(isRunStop(tokens)).toBe(true);
  });

  it("is false for a member's own failure and for anything else thrown", () => {
    expect(isRunStop(failed)).toBe(false);
    expect(isRunStop(new Error('boom'))).toBe(false);
    expect(isRunStop('ABORTED')).toBe(false);
    expect(isRunStop(undefined)).toBe(false);
  });
});

describe('settledStop with pauses', () => {
  it('throws one pause listing every waiting call of every member, once the others settled', () => {
    const thrown = (() => {
      try {
        settledStop([rejected(pauseA), answered('x'), rejected(failed), rejected(calls), rejected(pauseB)]);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(RunPausedError);
    expect((thrown as RunPausedError).pending.map((p) => p.id)).toEqual(['a', 'b', 'c']);
  });

  it('lets an abort win over a pause', () => {
    const abort = new AbortError();
    expect(() => settledStop([rejected(pauseA), rejected(abort)])).toThrow(abort);
  });
});

describe('mapConcurrent with stops', () => {
  it("rejects with a member's own failure over a pause, and merges pauses when nothing else failed", async () => {
    const outcomes: unknown[] = [pauseA, 'ok', pauseB];
    const run = (o: unknown) => (o === 'ok' ? Promise.resolve(o) : Promise.reject(o));
    await expect(mapConcurrent([pauseA, failed, pauseB], run)).rejects.toBe(failed);
    const merged = await mapConcurrent(outcomes, run).catch((e: unknown) => e);
    expect((merged as RunPausedError).pending.map((p) => p.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('settledStop', () => {
  it('is undefined when every member answered or failed on its own', () => {
    expect(settledStop([])).toBeUndefined();
    expect(settledStop([answered('a'), rejected(failed), answered('c')])).toBeUndefined();
  });

  it('returns the first budget refusal in input order as the run stop', () => {
    expect(settledStop([answered('a'), rejected(failed), rejected(tokens), rejected(calls)])).toBe(tokens);
    expect(settledStop([rejected(calls), rejected(tokens)])).toBe(calls);
  });

  it('rethrows an abort, even when a budget refusal settled before it', () => {
    const abort = new AbortError('stopped by the caller');
    expect(() => settledStop([rejected(calls), answered('b'), rejected(abort)])).toThrow(abort);
  });

  it('rethrows the first abort in input order', () => {
    const first = new AbortError('first');
    const second = new AbortError('second');
    expect(() => settledStop([rejected(failed), rejected(first), rejected(second)])).toThrow(first);
  });

  it('reads what mapSettled settled: siblings answered, one member refused by the budget', async () => {
    const settled = await mapSettled(['a', 'b', 'c'], async (name) => {
      if (name === 'b') throw calls;
      return name.toUpperCase();
    });
    expect(settledStop(settled)).toBe(calls);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(2);
  });
});

describe('interruptionFields', () => {
  it('marks a run the budget stopped with its reason', () => {
    expect(interruptionFields('budget:calls')).toEqual({
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
    expect(interruptionFields('budget:tokens')).toEqual({
      interrupted: true,
      interruptionReason: 'budget:tokens',
    });
  });

  it('adds no field to a run that was not stopped', () => {
    const result = { output: 'done', ...interruptionFields(undefined) };
    expect(result).toEqual({ output: 'done' });
    expect('interrupted' in result).toBe(false);
  });

  it('lets a result that always carries `interrupted` default it to false', () => {
    expect({ interrupted: false, ...interruptionFields(undefined) }).toEqual({ interrupted: false });
    expect({ interrupted: false, ...interruptionFields(tokens.reason) }).toEqual({
      interrupted: true,
      interruptionReason: 'budget:tokens',
    });
  });
});
