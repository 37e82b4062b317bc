import { EvalAssertionError } from './errors.js';
import type { ExperimentResult } from './experiment.js';

function meanOf(result: ExperimentResult, candidate: string, scorer: string): number {
  const summary = result.candidates.find((c) => c.name === candidate);
  if (!summary)
    throw new EvalAssertionError(
      `expectScore: no candidate "${candidate}" (have ${result.candidates.map((c) => c.name).join(', ')}).`,
    );
  const score = summary.scores[scorer];
  if (!score)
    throw new EvalAssertionError(`expectScore: no scorer "${scorer}" (have ${result.scorers.join(', ')}).`);
  return score.mean;
}

/**
 * For tests and CI: throws an EvalAssertionError (failing the test) when `candidate`'s mean `scorer`
 * score is under `atLeast`. Works in any test runner.
 */
export function expectScore(
  result: ExperimentResult,
  check: { candidate: string; scorer: string; atLeast: number },
): void {
  const value = meanOf(result, check.candidate, check.scorer);
  if (!(value >= check.atLeast)) {
    throw new EvalAssertionError(
      `${check.candidate} scored ${value.toFixed(4)} on ${check.scorer}, under the threshold ${check.atLeast}.`,
    );
  }
}

/** A baseline: mean score per candidate and scorer, as `baselineOf` writes it. */
export type Baseline = Record<string, Record<string, number>>;

/** The mean scores of a result, to keep as a baseline file (JSON). */
export function baselineOf(result: ExperimentResult): Baseline {
  return Object.fromEntries(
    result.candidates.map((c) => [
      c.name,
      Object.fromEntries(Object.entries(c.scores).map(([s, v]) => [s, v.mean])),
    ]),
  );
}

/**
 * Throws an EvalAssertionError listing every candidate and scorer of `baseline` whose mean fell more
 * than `tolerance` (default 0) under it; candidates or scorers absent from the baseline are not checked.
 */
export function expectNoRegression(
  result: ExperimentResult,
  baseline: Baseline,
  options: { tolerance?: number } = {},
): void {
  const tolerance = options.tolerance ?? 0;
  const problems: string[] = [];
  for (const [candidate, scores] of Object.entries(baseline)) {
    for (const [scorer, expected] of Object.entries(scores)) {
      const value = meanOf(result, candidate, scorer);
      if (value < expected - tolerance)
        problems.push(`${candidate} ${scorer}: ${value.toFixed(4)} < baseline ${expected.toFixed(4)}`);
    }
  }
  if (problems.length > 0)
    throw new EvalAssertionError(`Scores fell below the baseline:\n${problems.join('\n')}`);
}

/**
 * `expectNoRegression` against a JSON baseline file (Node only). With `update: true`, or when the
 * file does not exist, writes the result's baseline there instead and passes.
 */
export async function expectBaselineFile(
  result: ExperimentResult,
  file: string,
  options: { tolerance?: number; update?: boolean } = {},
): Promise<void> {
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:fs/promises') as typeof import('node:fs/promises') | undefined;
  if (!fs)
    throw new EvalAssertionError(
      'expectBaselineFile needs Node.js (node:fs); use expectNoRegression elsewhere.',
    );
  let text: string | undefined;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    text = undefined;
  }
  if (text === undefined || options.update) {
    await fs.writeFile(file, `${JSON.stringify(baselineOf(result), null, 2)}\n`);
    return;
  }
  expectNoRegression(result, JSON.parse(text) as Baseline, options);
}
