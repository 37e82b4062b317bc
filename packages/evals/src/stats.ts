/** Two-sided 95% quantiles of Student's t, by degrees of freedom 1..30 (then the normal 1.96 beyond 120). */
const t975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 97.5% quantile of Student's t with `df` degrees of freedom (table to 30, then 40/60/120, then 1.96). */
export function tQuantile975(df: number): number {
  if (!(df >= 1)) return Number.NaN;
  if (df <= 30) return t975[Math.floor(df) - 1] as number;
  if (df <= 40) return 2.021;
  if (df <= 60) return 2;
  if (df <= 120) return 1.98;
  return 1.96;
}

/** The arithmetic mean; NaN for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The sample standard deviation (n - 1); 0 for one value, NaN for none. */
export function sampleSd(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  if (values.length === 1) return 0;
  const m = mean(values);
  let sum = 0;
  for (const v of values) sum += (v - m) ** 2;
  return Math.sqrt(sum / (values.length - 1));
}

/** A mean with its 95% confidence interval (Student's t): `low`/`high` equal the mean for one value. */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** The mean of `values` and its two-sided 95% confidence interval, mean ± t(0.975, n-1)·sd/√n. */
export function meanInterval(values: readonly number[]): MeanInterval {
  const m = mean(values);
  const n = values.length;
  if (n < 2) return { mean: m, low: m, high: m, n };
  const half = (tQuantile975(n - 1) * sampleSd(values)) / Math.sqrt(n);
  return { mean: m, low: m - half, high: m + half, n };
}

/**
 * The `p`-th percentile (0..100) by linear interpolation between closest ranks (the "R-7" rule of
 * numpy's default): the median of [1, 2, 3, 4] is 2.5. NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (rank - low);
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The outcome of a paired test of `a` against `b`. */
export interface PairedTest {
  /** Pairs compared. */
  n: number;
  /** Mean of a - b. */
  meanDifference: number;
  /** Two-sided p-value: how often a difference at least this large arises with no real difference. */
  pValue: number;
  /** `exact` (all 2^n sign patterns) or `sampled` (seeded Monte Carlo). */
  method: 'exact' | 'sampled';
}

/**
 * The paired sign-flip permutation test: under "no difference" each pair's difference is as likely
 * positive as negative, so the p-value is the share of the 2^n sign patterns whose |sum| is at least
 * the observed |sum|. Exact up to 16 pairs, beyond that 10,000 patterns drawn with a fixed seed (so a
 * result repeats). Zero differences count in n but never change a sum. Makes no normality assumption.
 */
export function pairedPermutationTest(
  a: readonly number[],
  b: readonly number[],
  options: { seed?: number; samples?: number } = {},
): PairedTest {
  if (a.length !== b.length)
    throw new RangeError(`pairedPermutationTest: ${a.length} and ${b.length} values are not pairs.`);
  const diffs = a.map((v, i) => v - (b[i] as number));
  const n = diffs.length;
  if (n === 0) return { n, meanDifference: Number.NaN, pValue: 1, method: 'exact' };
  const observed = Math.abs(diffs.reduce((s, d) => s + d, 0));
  const eps = 1e-9 * Math.max(1, observed);
  if (n <= 16) {
    let atLeast = 0;
    const patterns = 2 ** n;
    for (let mask = 0; mask < patterns; mask++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += mask & (1 << i) ? -(diffs[i] as number) : (diffs[i] as number);
      if (Math.abs(sum) >= observed - eps) atLeast++;
    }
    return { n, meanDifference: mean(diffs), pValue: atLeast / patterns, method: 'exact' };
  }
  const random = seededRandom(options.seed ?? 24);
  const samples = options.samples ?? 10_000;
  let atLeast = 0;
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (const d of diffs) sum += random() < 0.5 ? -d : d;
    if (Math.abs(sum) >= observed - eps) atLeast++;
  }
  // The observed pattern counts as one of the draws, so p is never 0.
  return { n, meanDifference: mean(diffs), pValue: (atLeast + 1) / (samples + 1), method: 'sampled' };
}
