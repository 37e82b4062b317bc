import { describe, expect, it } from 'vitest';
import { checkGame24 } from './check.js';
import { parseExpression } from './expression.js';

describe('checkGame24', () => {
  it('accepts an expression that uses each number once and equals 24', () => {
    expect(checkGame24('(10 - 4) * (13 - 9)', [4, 9, 10, 13]).ok).toBe(true);
    expect(checkGame24('Answer: (10 - 4) × (13 - 9) = 24', [4, 9, 10, 13]).ok).toBe(true);
  });

  it('does the arithmetic exactly, with fractions', () => {
    expect(checkGame24('8 / (3 - 8 / 3)', [3, 3, 8, 8]).ok).toBe(true);
    expect(checkGame24('6 / (1 - 3 / 4)', [1, 3, 4, 6]).ok).toBe(true);
  });

  it('rejects a wrong value, a missing or repeated number, and what is not an expression', () => {
    expect(checkGame24('10 + 4 + 13 - 9', [4, 9, 10, 13])).toMatchObject({
      ok: false,
      reason: 'equals 18, not 24',
    });
    expect(checkGame24('(10 - 4) * 4', [4, 9, 10, 13]).ok).toBe(false);
    expect(checkGame24('(10 - 4) * (13 - 9) * 1', [4, 9, 10, 13]).ok).toBe(false);
    expect(checkGame24('24', [4, 9, 10, 13]).ok).toBe(false);
    expect(checkGame24('(10 - 4) * (13 - 9', [4, 9, 10, 13]).reason).toMatch(/not a valid expression/);
    expect(checkGame24('process.exit(1)', [4, 9, 10, 13]).ok).toBe(false);
    expect(checkGame24('4 / (9 - 9) + 10 + 13', [4, 9, 9, 13]).reason).toMatch(/division by zero/);
  });

  it('respects operator precedence and rejects unary minus', () => {
    expect(parseExpression('2 + 3 * 4').value).toEqual({ n: 14n, d: 1n });
    expect(parseExpression('(2 + 3) * 4').value).toEqual({ n: 20n, d: 1n });
    expect(parseExpression('7 - 4 - 1').value).toEqual({ n: 2n, d: 1n });
    expect(() => parseExpression('-4 + 28')).toThrow(SyntaxError);
  });
});
