import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { TreeOfThoughts } from '../tree-of-thoughts.js';
import { checkGame24 } from './check.js';
import { replaySteps } from './moves.js';
import { rational } from './rational.js';
import { canReach24 } from './solver.js';
import { game24Answerer, game24Evaluator, game24Generator } from './strategies.js';
import { game24Task, parseGame24Numbers } from './task.js';

const offlineToT = (noise: number, breadth = 5) =>
  new TreeOfThoughts({
    generationStrategy: game24Generator(),
    evaluationStrategy: game24Evaluator({ noise }),
    answerStrategy: game24Answerer,
    numThoughts: 36,
    breadth,
    maxDepth: 3,
  });

describe('Game of 24 strategies', () => {
  it('reads the four numbers from the quickstart sentence and from a dataset row', () => {
    expect(parseGame24Numbers('Use 4, 9, 10 and 13 with + - * / to make 24.')).toEqual([4, 9, 10, 13]);
    expect(parseGame24Numbers('1 1 4 6')).toEqual([1, 1, 4, 6]);
    expect(game24Task([4, 9, 10, 13])).toBe('Use 4, 9, 10 and 13 with + - * / to make 24.');
  });

  it('knows exactly which numbers can still make 24', () => {
    expect(canReach24([4, 9, 10, 13].map((n) => rational(n)))).toBe(true);
    expect(canReach24([1, 1, 1, 1].map((n) => rational(n)))).toBe(false);
    expect(canReach24([3, 3, 8, 8].map((n) => rational(n)))).toBe(true);
  });

  it('generates only legal moves, and replays them to the expression they build', async () => {
    const moves = await game24Generator()({
      task: '4 9 10 13',
      steps: [],
      depth: 1,
      maxDepth: 3,
      numThoughts: 100,
    });
    expect(moves.length).toBeGreaterThan(20);
    expect(moves).toContainEqual({ content: '13 - 9 = 4 (left: 4 10 4)', isFinal: false });
    const path = ['13 - 9 = 4 (left: 4 10 4)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'];
    expect(replaySteps([4, 9, 10, 13], path).map((i) => i.expression)).toEqual(['((13 - 9) * (10 - 4))']);
    expect(game24Answerer({ task: '4 9 10 13', steps: path, solved: true })).toBe('(13 - 9) * (10 - 4)');
  });

  it('solves the quickstart puzzle with a perfect evaluator (noise 0)', async () => {
    const tot = offlineToT(0);
    const answer = await tot.run(game24Task([4, 9, 10, 13]));
    expect(checkGame24(answer, [4, 9, 10, 13])).toMatchObject({ ok: true });
    expect(tot.lastResult).toMatchObject({ solved: true, llmCalls: 0 });
  });

  it('keeps its noise deterministic for a seed, whatever the visiting order', () => {
    const evaluate = game24Evaluator({ noise: 0.3, seed: 7 });
    const input = {
      task: '4 9 10 13',
      steps: ['13 - 9 = 4 (left: 4 10 4)'],
      content: '',
      depth: 1,
      isFinal: false,
    };
    expect(evaluate(input)).toEqual(evaluate(input));
  });

  it('misjudges with noise 1: it rejects every reachable state', async () => {
    const tot = offlineToT(1);
    const answer = await tot.run('4 9 10 13');
    expect(checkGame24(answer, [4, 9, 10, 13]).ok).toBe(false);
  });

  it('refuses a noise level outside 0 to 1 with a ConfigError', () => {
    expect(() => game24Evaluator({ noise: 1.5 })).toThrow(ConfigError);
    expect(() => game24Evaluator({ noise: -0.1 })).toThrow(/noise must be between 0 and 1/);
  });
});
