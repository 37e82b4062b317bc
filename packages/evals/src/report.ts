import type { CandidateSummary, ExperimentResult } from './experiment.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const num = (n: number | undefined, digits = 3) =>
  n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);

/** Options of `htmlReport`. */
export interface ReportOptions {
  title?: string;
  /** The score on the plot's quality axis (default the first scorer). */
  scorer?: string;
}

/** How a candidate's cost is put on the plot: money when every candidate is priced, else tokens, else p50 latency. */
function costAxis(candidates: readonly CandidateSummary[]): {
  label: string;
  of: (c: CandidateSummary) => number;
} {
  if (candidates.every((c) => c.cost.money !== undefined))
    return { label: 'money', of: (c) => c.cost.money as number };
  if (candidates.some((c) => c.cost.usage.totalTokens > 0)) {
    return { label: 'tokens', of: (c) => c.cost.usage.totalTokens + c.cost.judgeUsage.totalTokens };
  }
  return { label: 'latency p50 (ms)', of: (c) => c.latency.p50 };
}

/**
 * The candidates no other beats on both axes (at least as good and at most as costly, better on one):
 * the Pareto front of quality against cost.
 */
export function paretoFront(points: readonly { name: string; quality: number; cost: number }[]): string[] {
  return points
    .filter(
      (p) =>
        !points.some(
          (q) =>
            q !== p &&
            q.quality >= p.quality &&
            q.cost <= p.cost &&
            (q.quality > p.quality || q.cost < p.cost),
        ),
    )
    .map((p) => p.name);
}

/**
 * A self-contained HTML page of an experiment: the summary table, a quality-versus-cost plot with the
 * Pareto front marked, the pairwise comparisons, and per item every candidate's runs (answer,
 * scores with rationales, error, cost). Every value from the experiment is escaped; no script runs.
 */
export function htmlReport(result: ExperimentResult, options: ReportOptions = {}): string {
  const title = options.title ?? `Experiment on ${result.dataset.name}`;
  const scorer = options.scorer ?? result.scorers[0] ?? '';
  const axis = costAxis(result.candidates);
  const points = result.candidates.map((c) => ({
    name: c.name,
    quality: c.scores[scorer]?.mean ?? 0,
    cost: axis.of(c),
  }));
  const front = new Set(paretoFront(points));

  const width = 560;
  const height = 320;
  const pad = 48;
  const maxCost = Math.max(...points.map((p) => p.cost), 0) || 1;
  const x = (cost: number) => pad + (cost / maxCost) * (width - 2 * pad);
  const y = (quality: number) => height - pad - quality * (height - 2 * pad);
  const frontLine = points
    .filter((p) => front.has(p.name))
    .sort((a, b) => a.cost - b.cost)
    .map((p) => `${num(x(p.cost), 1)},${num(y(p.quality), 1)}`)
    .join(' ');
  const svg = `<svg id="plot" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(`${scorer} against ${axis.label}`)}">
<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#888"/>
<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="#888"/>
<text x="${width / 2}" y="${height - 12}" text-anchor="middle">${escapeHtml(axis.label)} (0 to ${escapeHtml(num(maxCost, 4))})</text>
<text x="14" y="${height / 2}" transform="rotate(-90 14 ${height / 2})" text-anchor="middle">${escapeHtml(scorer)} (0 to 1)</text>
${frontLine ? `<polyline class="pareto-line" points="${frontLine}" fill="none" stroke="#c60" stroke-dasharray="4 3"/>` : ''}
${points
  .map(
    (p) =>
      `<g class="point${front.has(p.name) ? ' pareto' : ''}" data-candidate="${escapeHtml(p.name)}" data-quality="${num(p.quality, 6)}" data-cost="${num(p.cost, 6)}"><circle cx="${num(x(p.cost), 1)}" cy="${num(y(p.quality), 1)}" r="6" fill="${front.has(p.name) ? '#c60' : '#48c'}"/><text x="${num(x(p.cost) + 9, 1)}" y="${num(y(p.quality) - 9, 1)}">${escapeHtml(p.name)}</text></g>`,
  )
  .join('\n')}
</svg>`;

  const summaryRows = result.candidates
    .map(
      (c) =>
        `<tr data-candidate="${escapeHtml(c.name)}"><th scope="row">${escapeHtml(c.name)}${front.has(c.name) ? ' <span class="badge">Pareto</span>' : ''}</th>${result.scorers
          .map((s) => {
            const v = c.scores[s];
            return `<td class="score" data-scorer="${escapeHtml(s)}">${num(v?.mean)} <small>[${num(v?.low, 2)}, ${num(v?.high, 2)}]</small></td>`;
          })
          .join(
            '',
          )}<td>${c.cost.llmCalls}${c.cost.judgeCalls ? ` + ${c.cost.judgeCalls} judge` : ''}</td><td>${c.cost.usage.totalTokens}</td><td>${c.cost.money === undefined ? '-' : escapeHtml(num(c.cost.money, 4))}</td><td>${num(c.latency.p50, 1)}</td><td>${num(c.latency.p95, 1)}</td><td>${
          [
            ...Object.entries(c.failures).map(([code, n]) => `${escapeHtml(code)} × ${n}`),
            ...Object.entries(c.scorerFailures ?? {}).flatMap(([scorer, codes]) =>
              Object.entries(codes).map(([code, n]) => `${escapeHtml(scorer)}: ${escapeHtml(code)} × ${n}`),
            ),
          ].join(', ') || '0'
        }</td></tr>`,
    )
    .join('\n');

  const comparisons = result.comparisons
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.a)}</td><td>${escapeHtml(c.b)}</td><td>${escapeHtml(c.scorer)}</td><td>${num(c.meanDifference)}</td><td>${num(c.pValue, 4)}</td><td>${c.better === undefined ? 'no significant difference' : escapeHtml(c.better)}</td></tr>`,
    )
    .join('\n');

  const items = result.dataset.items
    .map((item, index) => {
      const runs = result.runs.filter((r) => r.item === index);
      const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
      return `<details class="item" data-item="${index}"><summary>#${index + 1} ${escapeHtml(text(item.input).slice(0, 120))}</summary>
<p>Input: <code>${escapeHtml(text(item.input))}</code>${item.expected === undefined ? '' : ` — expected: <code>${escapeHtml(text(item.expected))}</code>`}</p>
<table><thead><tr><th>candidate</th><th>repeat</th><th>answer</th><th>scores</th><th>calls</th><th>tokens</th><th>ms</th></tr></thead><tbody>
${runs
  .map(
    (r) =>
      `<tr class="run${r.error ? ' failed' : ''}" data-candidate="${escapeHtml(r.candidate)}"><td>${escapeHtml(r.candidate)}</td><td>${r.repeat + 1}</td><td class="answer">${r.error ? `<strong>${escapeHtml(r.error.code)}</strong>: ${escapeHtml(r.error.message)}` : `<pre>${escapeHtml(r.output)}</pre>`}</td><td>${Object.entries(
        r.scores,
      )
        .map(
          ([s, v]) =>
            `${escapeHtml(s)}: ${num(v.score)}${v.rationale ? ` <small>(${escapeHtml(v.rationale)})</small>` : ''}`,
        )
        .join(
          '<br>',
        )}</td><td>${r.llmCalls}${r.judgeCalls ? ` + ${r.judgeCalls}` : ''}</td><td>${r.usage.totalTokens}</td><td>${num(r.latencyMs, 1)}</td></tr>`,
  )
  .join('\n')}
</tbody></table></details>`;
    })
    .join('\n');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}pre{margin:0;white-space:pre-wrap;max-width:40em}.badge{background:#c60;color:#fff;border-radius:3px;padding:0 4px;font-size:11px}.failed{background:#fee}details{margin:.3em 0}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>${result.dataset.items.length} items × ${result.candidates.length} candidates, ${result.runs.length} runs. Scores are means over items with 95% confidence intervals; comparisons use the paired sign-flip permutation test.</p>
<h2>Candidates</h2>
<table id="summary"><thead><tr><th>candidate</th>${result.scorers.map((s) => `<th>${escapeHtml(s)}</th>`).join('')}<th>calls</th><th>tokens</th><th>money</th><th>p50 ms</th><th>p95 ms</th><th>failures</th></tr></thead><tbody>
${summaryRows}
</tbody></table>
<h2>Quality against cost</h2>
${svg}
<h2>Comparisons</h2>
<table id="comparisons"><thead><tr><th>a</th><th>b</th><th>scorer</th><th>mean a − b</th><th>p</th><th>better</th></tr></thead><tbody>
${comparisons}
</tbody></table>
<h2>Items</h2>
<div id="items">
${items}
</div>
</body></html>
`;
}
