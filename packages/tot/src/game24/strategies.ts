import { ConfigError } from '@swarm/core';
import type { AnswerWriter, ThoughtEvaluator, ThoughtGenerator } from '../strategies.js';
import { legalMoves, replaySteps } from './moves.js';
import { seededRandom } from './random.js';
import { formatRational } from './rational.js';
import { canReach24 } from './solver.js';
import { parseGame24Numbers } from './task.js';

/**
 * A programmatic Game of 24 generator: the legal moves (two remaining numbers, one operator) in a
 * seeded shuffled order, `numThoughts` of them; the move that leaves one number is final.
 */
export function game24Generator(options: { seed?: number } = {}): ThoughtGenerator {
  const seed = options.seed ?? 0;
  return ({ task, steps, numThoughts }) => {
    const moves = legalMoves(replaySteps(parseGame24Numbers(task), steps));
    const random = seededRandom(seed, task, ...steps);
    for (let i = moves.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [moves[i], moves[j]] = [moves[j]!, moves[i]!];
    }
    return moves
      .slice(0, numThoughts)
      .map((move) => ({ content: move.content, isFinal: move.left.length === 1 }));
  };
}

/** Options of the noisy evaluator. */
export interface Game24EvaluatorOptions {
  /** Probability (0 to 1) that a verdict is flipped: 0 is a perfect judge, 0.5 a coin. */
  noise?: number;
  seed?: number;
}

/**
 * A programmatic Game of 24 evaluator: an exact check that the remaining numbers can still make 24,
 * wrong with probability `noise` (seeded, so runs repeat). Reachable scores 0.75 to 1, unreachable
 * 0 to 0.25, so the default threshold of 0.5 prunes what it judges a dead end.
 */
export function game24Evaluator(options: Game24EvaluatorOptions = {}): ThoughtEvaluator {
  const { noise = 0, seed = 0 } = options;
  if (!(noise >= 0 && noise <= 1))
    throw new ConfigError(`game24Evaluator: noise must be between 0 and 1 (got ${noise}).`);
  return ({ task, steps }) => {
    const left = replaySteps(parseGame24Numbers(task), steps).map((item) => item.value);
    const truth = canReach24(left);
    const random = seededRandom(seed, 'evaluate', task, ...steps);
    const flipped = random() < noise;
    const judged = truth !== flipped;
    const score = judged ? 0.75 + 0.25 * random() : 0.25 * random();
    const numbers = left.map(formatRational).join(' ');
    return {
      score,
      evaluation: `${numbers} ${judged ? 'can' : 'cannot'} reach 24${flipped ? ' (noisy misjudgement)' : ''}`,
    };
  };
}

/**
 * A programmatic Game of 24 answer writer: replays the path and writes the expression it built,
 * `(10 - 4) * (13 - 9)`; a partial path gives the expressions still unjoined.
 */
export const game24Answerer: AnswerWriter = ({ task, steps }) => {
  const items = replaySteps(parseGame24Numbers(task), steps);
  return items.map((item) => stripOuterParentheses(item.expression)).join(', ');
};

function stripOuterParentheses(expression: string): string {
  return expression.startsWith('(') && expression.endsWith(')') ? expression.slice(1, -1) : expression;
}
