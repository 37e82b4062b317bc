import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EvalAssertionError } from './errors.js';
import { baselineOf, expectBaselineFile, expectNoRegression, expectScore } from './expect.js';
import { runExperiment } from './experiment.js';
import { exactMatch } from './scorers.js';

const result = await runExperiment({
  dataset: [
    { input: 'a', expected: 'a' },
    { input: 'b', expected: 'b' },
  ],
  candidates: { echo: (input) => String(input), half: (input) => (input === 'a' ? 'a' : 'x') },
  scorers: [exactMatch()],
});

describe('test-runner helpers', () => {
  it('expectScore passes at or over the threshold and throws under it', () => {
    expectScore(result, { candidate: 'echo', scorer: 'exact', atLeast: 1 });
    expect(() => expectScore(result, { candidate: 'half', scorer: 'exact', atLeast: 0.6 })).toThrow(
      'half scored 0.5000 on exact, under the threshold 0.6.',
    );
    expect(() => expectScore(result, { candidate: 'nobody', scorer: 'exact', atLeast: 0 })).toThrow(
      EvalAssertionError,
    );
  });

  it('a baseline fails a candidate that fell under it, beyond the tolerance', () => {
    expect(baselineOf(result)).toEqual({ echo: { exact: 1 }, half: { exact: 0.5 } });
    expectNoRegression(result, { half: { exact: 0.6 } }, { tolerance: 0.1 });
    expect(() => expectNoRegression(result, { half: { exact: 0.75 } })).toThrow(
      /half exact: 0\.5000 < baseline 0\.7500/,
    );
  });

  it('a baseline file is written when missing and checked after', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'evals-baseline-')), 'baseline.json');
    await expectBaselineFile(result, file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ echo: { exact: 1 }, half: { exact: 0.5 } });
    await expectBaselineFile(result, file);
    await writeFile(file, JSON.stringify({ echo: { exact: 1 }, half: { exact: 1 } }));
    await expect(expectBaselineFile(result, file)).rejects.toThrow(EvalAssertionError);
  });
});
