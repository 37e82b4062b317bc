import { describe, expect, it } from 'vitest';
import { runExperiment } from './experiment.js';
import { customScorer, exactMatch } from './scorers.js';
import { formatTable } from './table.js';

describe('formatTable', () => {
  it('one row per candidate, failures by code, and the significant differences', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ input: String(i), expected: String(i) }));
    const result = await runExperiment({
      dataset: items,
      candidates: {
        right: (input) => String(input),
        wrong: (input) => {
          if (input === '0') throw new Error('boom');
          return 'x';
        },
      },
      scorers: [exactMatch()],
    });
    const lines = formatTable(result).split('\n');
    expect(lines[0]).toMatch(
      /^candidate\s+exact \(95% CI\)\s+calls\s+tokens\s+money\s+p50 ms\s+p95 ms\s+failures$/,
    );
    expect(lines[2]).toMatch(/^right\s+1\.000 \[1\.00, 1\.00\]\s+0\s+0\s+-\s+[\d.]+\s+[\d.]+\s+0$/);
    expect(lines[3]).toMatch(/^wrong\s+0\.000 \[0\.00, 0\.00\]\s+0\s+0\s+-\s+[\d.]+\s+[\d.]+\s+ERROR×1$/);
    expect(lines.at(-1)).toBe('right beats wrong on exact: mean difference 1.000, p = 0.0313 (6 items)');
  });

  it("lists a scorer's failures beside the runs' failures, by scorer and code", async () => {
    const result = await runExperiment({
      dataset: [
        { input: 'a', expected: 'a' },
        { input: 'b', expected: 'b' },
      ],
      candidates: { only: (input) => String(input) },
      scorers: [
        customScorer('judge', ({ output }) => {
          if (output === 'b') throw new Error('judge down');
          return 1;
        }),
      ],
    });
    expect(formatTable(result).split('\n')[2]).toMatch(/\sjudge:ERROR×1$/);
  });
});
