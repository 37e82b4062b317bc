import { describe, expect, it } from 'vitest';
import {
  mean,
  meanInterval,
  pairedPermutationTest,
  percentile,
  sampleSd,
  seededRandom,
  tQuantile975,
} from './stats.js';

describe('statistics against hand-computed values', () => {
  it('mean, sample sd and the t interval of 1..5', () => {
    expect(mean([1, 2, 3, 4, 5])).toBe(3);
    // Σ(x-3)² = 10, / (5-1) = 2.5, √2.5 = 1.58114
    expect(sampleSd([1, 2, 3, 4, 5])).toBeCloseTo(1.58114, 5);
    // half width = t(0.975, 4) · sd / √5 = 2.776 · 1.58114 / 2.23607 = 1.96292
    const ci = meanInterval([1, 2, 3, 4, 5]);
    expect(ci.mean).toBe(3);
    expect(ci.low).toBeCloseTo(3 - 1.96292, 4);
    expect(ci.high).toBeCloseTo(3 + 1.96292, 4);
    expect(ci.n).toBe(5);
  });

  it('a single value has a zero-width interval; no values give NaN', () => {
    expect(meanInterval([0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5, n: 1 });
    expect(Number.isNaN(mean([]))).toBe(true);
  });

  it('t quantiles from the table', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(9)).toBe(2.262);
    expect(tQuantile975(1000)).toBe(1.96);
  });

  it('percentiles interpolate between closest ranks', () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5);
    // rank 0.95 · 9 = 8.55 → 9 + 0.55 · (10 - 9)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBeCloseTo(9.55, 10);
    expect(percentile([7], 95)).toBe(7);
  });

  it('the exact sign-flip test: differences 1, 2, 3 → only ± all-positive reach |6|, p = 2/8', () => {
    const t = pairedPermutationTest([3, 4, 5], [2, 2, 2]);
    expect(t).toEqual({ n: 3, meanDifference: 2, pValue: 0.25, method: 'exact' });
  });

  it('four equal differences give p = 2/16; differences that cancel give p = 1', () => {
    expect(pairedPermutationTest([1, 1, 1, 1], [0, 0, 0, 0]).pValue).toBe(0.125);
    expect(pairedPermutationTest([1, 0], [0, 1]).pValue).toBe(1);
  });

  it('differences 1, 1, 1, 1, 1, 1 and -1: sums reaching |5| are 16 of 128 patterns', () => {
    // With k of the six ones flipped and the -1 flipped or not, sum = (6 - 2k) ± 1. |sum| >= 5 for
    // k = 0 or k = 6 (either sign of the last: 4 patterns) and k = 1 or k = 5 with the sign that adds
    // (6 + 6 patterns): 16.
    const t = pairedPermutationTest([1, 1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 1]);
    expect(t.pValue).toBe(16 / 128);
  });

  it('more than 16 pairs are sampled with a fixed seed, so the p-value repeats', () => {
    const a = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 1 : 0.5));
    const b = Array.from({ length: 30 }, () => 0.5);
    const first = pairedPermutationTest(a, b);
    expect(first.method).toBe('sampled');
    expect(pairedPermutationTest(a, b)).toEqual(first);
    // 10 differences of 0.5, 20 zeros: the exact p is 2/1024; the sample is close to it.
    expect(first.pValue).toBeLessThan(0.01);
    const r = seededRandom(1);
    const s = seededRandom(1);
    expect([r(), r()]).toEqual([s(), s()]);
  });
});
