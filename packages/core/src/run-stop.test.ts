import { describe, expect, it } from 'vitest';
import { mapSettled } from './concurrency.js';
import { AbortError, BudgetExceededError, ModelError } from './errors.js';
import { interruptionFields, isRunStop, settledStop } from './run-stop.js';
import type { Settled } from './types.js';

const calls = new BudgetExceededError('budget:calls', 'The run has no calls left.');
const tokens = new BudgetExceededError('budget:tokens', 'The run has no tokens left.');
const failed = new ModelError('The provider said no.', { status: 500, provider: 'test' });

const answered = (value: string): Settled<string> => ({ status: 'fulfilled', value });
const rejected = (reason: unknown): Settled<string> => ({ status: 'rejected', reason });

describe('isRunStop', () => {
  it('is true for an abort and for a budget refusal of either kind', () => {
    expect(isRunStop(new AbortError())).toBe(true);
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
