import type { ExperimentResult } from './experiment.js';

const fixed = (n: number | undefined, digits: number) =>
  n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits);

/**
 * The result as a plain-text table for a terminal: one row per candidate with each score's mean and
 * 95% interval, calls, tokens, money (when priced), latency p50/p95 and failures; then the
 * significant pairwise differences.
 */
export function formatTable(result: ExperimentResult): string {
  const header = [
    'candidate',
    ...result.scorers.map((s) => `${s} (95% CI)`),
    'calls',
    'tokens',
    'money',
    'p50 ms',
    'p95 ms',
    'failures',
  ];
  const rows = result.candidates.map((c) => [
    c.name,
    ...result.scorers.map((s) => {
      const v = c.scores[s];
      return v ? `${fixed(v.mean, 3)} [${fixed(v.low, 2)}, ${fixed(v.high, 2)}]` : '-';
    }),
    String(c.cost.llmCalls + (c.cost.judgeCalls ? ` +${c.cost.judgeCalls} judge` : '')),
    String(c.cost.usage.totalTokens),
    c.cost.money === undefined ? '-' : fixed(c.cost.money, 4),
    fixed(c.latency.p50, 1),
    fixed(c.latency.p95, 1),
    [
      ...Object.entries(c.failures).map(([code, n]) => `${code}×${n}`),
      ...Object.entries(c.scorerFailures ?? {}).flatMap(([scorer, codes]) =>
        Object.entries(codes).map(([code, n]) => `${scorer}:${code}×${n}`),
      ),
    ].join(' ') || '0',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const significant = result.comparisons.filter((c) => c.better !== undefined);
  out.push('');
  if (significant.length === 0)
    out.push('No significant difference between candidates (paired permutation test, p < 0.05).');
  for (const c of significant) {
    const worse = c.better === c.a ? c.b : c.a;
    out.push(
      `${c.better} beats ${worse} on ${c.scorer}: mean difference ${fixed(Math.abs(c.meanDifference), 3)}, p = ${fixed(c.pValue, 4)} (${c.n} items)`,
    );
  }
  return out.join('\n');
}
