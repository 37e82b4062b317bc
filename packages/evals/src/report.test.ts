import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from './experiment.js';
import { escapeHtml, htmlReport, paretoFront } from './report.js';
import { customScorer, exactMatch } from './scorers.js';

// Debian's chromium; never a downloaded browser.
const executablePath =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
let browser: Browser;

beforeAll(async () => {
  if (!executablePath) {
    throw new Error(
      "No chromium found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
    );
  }
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(() => browser?.close());

const hostile = '<img src=x onerror="window.hacked=1">';
const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cachedTokens: 0,
  reasoningTokens: 0,
  totalTokens: input + output,
});

async function experiment() {
  const items = [
    { input: `question ${hostile}`, expected: 'a' },
    { input: 'q2', expected: 'b' },
  ];
  return runExperiment({
    dataset: items,
    candidates: {
      // Right on both, dear: on the front.
      strong: (_input, { item }) => ({ output: String(item.expected), usage: usage(1000, 100), llmCalls: 2 }),
      // Right on one, cheap: on the front.
      [hostile]: (input, { item }) => ({
        output: input === 'q2' ? '</pre><script>window.hacked=2</script>' : String(item.expected),
        usage: usage(10, 1),
        llmCalls: 1,
      }),
      // Right on one at a higher price than the cheap one: dominated.
      dominated: (input, { item }) => {
        if (input === 'q2') throw new Error(`failed ${hostile}`);
        return { output: String(item.expected), usage: usage(500, 50), llmCalls: 1 };
      },
    },
    scorers: [
      exactMatch(),
      customScorer('length', ({ output }) => ({ score: 1, rationale: `length ${output.length} ${hostile}` })),
    ],
    prices: {
      strong: { inputPerMillion: 1000, outputPerMillion: 1000 },
      [hostile]: { inputPerMillion: 1000, outputPerMillion: 1000 },
      dominated: { inputPerMillion: 1000, outputPerMillion: 1000 },
    },
  });
}

describe('htmlReport: failures', () => {
  it("shows a scorer's failures beside the runs' failures, the scorer's name escaped", async () => {
    const result = await runExperiment({
      dataset: [
        { input: 'a', expected: 'a' },
        { input: 'b', expected: 'b' },
      ],
      candidates: { only: (input) => String(input) },
      scorers: [
        customScorer(`judge ${hostile}`, ({ output }) => {
          if (output === 'b') throw new Error('judge down');
          return 1;
        }),
      ],
    });
    const html = htmlReport(result);
    expect(html).toContain(`<td>${escapeHtml(`judge ${hostile}`)}: ERROR × 1</td>`);
    expect(html).not.toContain(hostile);
  });
});

describe('paretoFront', () => {
  it('keeps the candidates no other beats on both quality and cost', () => {
    expect(
      paretoFront([
        { name: 'a', quality: 1, cost: 10 },
        { name: 'b', quality: 0.5, cost: 1 },
        { name: 'c', quality: 0.5, cost: 5 },
        { name: 'd', quality: 0.9, cost: 10 },
        { name: 'e', quality: 0.5, cost: 1 },
      ]),
    ).toEqual(['a', 'b', 'e']);
  });

  it('escapeHtml escapes the five characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('the HTML report, in chromium', () => {
  it('shows the summary, the plot with the Pareto front, and each item’s runs, every value escaped', async () => {
    const result = await experiment();
    const page = await browser.newPage();
    try {
      await page.setContent(htmlReport(result, { title: `Report ${hostile}` }));
      expect(await page.title()).toBe(`Report ${hostile}`);
      expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(0);

      const rows = page.locator('#summary tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).locator('th').textContent()).toBe(`${hostile} Pareto`);
      expect(await rows.nth(0).locator('td.score[data-scorer="exact"]').textContent()).toBe(
        '1.000 [1.00, 1.00]',
      );
      // 1100 tokens at 1000 per million, twice: 2.2
      expect(await rows.nth(0).locator('td').nth(4).textContent()).toBe('2.2000');
      expect(await rows.nth(2).locator('td').last().textContent()).toBe('ERROR × 1');

      const front = await page
        .locator('#plot g.point.pareto')
        .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-candidate')));
      expect(front).toEqual(['strong', hostile]);
      expect(await page.locator('#plot g.point').count()).toBe(3);
      expect(
        await page.locator('#plot g.point[data-candidate="dominated"]').getAttribute('data-quality'),
      ).toBe('0.500000');
      expect(await page.locator('#plot polyline.pareto-line').count()).toBe(1);
      expect(await page.locator('#plot').getAttribute('aria-label')).toBe('exact against money');

      const second = page.locator('details.item[data-item="1"]');
      expect(await second.locator('tr.run').first().isVisible()).toBe(false);
      await second.locator('summary').click();
      const runs = second.locator('tr.run');
      expect(await runs.count()).toBe(3);
      expect(await runs.nth(1).locator('td.answer').textContent()).toBe(
        '</pre><script>window.hacked=2</script>',
      );
      expect(await runs.nth(2).locator('td.answer').textContent()).toBe(`ERROR: failed ${hostile}`);
      expect(await runs.nth(0).textContent()).toContain(`length 1 ${hostile}`);

      const comparisons = page.locator('#comparisons tbody tr');
      expect(await comparisons.count()).toBe(6);
      expect(await comparisons.first().textContent()).toContain('no significant difference');
    } finally {
      await page.close();
    }
  });
});
