import { apply, formatRational, type Operator, parseRational, type Rational, rational } from './rational.js';
import { pairs } from './solver.js';

/** A number still in play, with the expression that produced it from the puzzle's numbers. */
export interface Game24Item {
  value: Rational;
  expression: string;
}

/** One legal move: combine two remaining numbers with an operator. */
export interface Game24Move {
  /** The step as the search shows it: `13 - 9 = 4 (left: 4 4 10)`. */
  content: string;
  /** The numbers left after the move. */
  left: Game24Item[];
}

const stepPattern = /^\s*(-?\d+(?:\/\d+)?)\s*([-+*/])\s*(-?\d+(?:\/\d+)?)\s*=/;

/** The numbers in play at the start. */
export function startingItems(numbers: readonly number[]): Game24Item[] {
  return numbers.map((n) => ({ value: rational(BigInt(n)), expression: String(n) }));
}

/**
 * Replays steps written as `a op b = c ...` from the puzzle's numbers and returns what is left,
 * each number with its expression. Throws a RangeError on a step that is not a legal move.
 */
export function replaySteps(numbers: readonly number[], steps: readonly string[]): Game24Item[] {
  let items = startingItems(numbers);
  for (const step of steps) {
    const match = stepPattern.exec(step);
    const a = match && parseRational(match[1]!);
    const b = match && parseRational(match[3]!);
    if (!match || !a || !b) throw new RangeError(`not a Game of 24 step: ${JSON.stringify(step)}`);
    const i = items.findIndex((item) => formatRational(item.value) === formatRational(a));
    const j = items.findIndex((item, k) => k !== i && formatRational(item.value) === formatRational(b));
    if (i < 0 || j < 0) throw new RangeError(`step uses numbers not left: ${JSON.stringify(step)}`);
    const move = combine(items, i, j, match[2] as Operator);
    if (!move) throw new RangeError(`step divides by zero: ${JSON.stringify(step)}`);
    items = move.left;
  }
  return items;
}

/** Every legal move from the remaining numbers, without duplicate steps. */
export function legalMoves(items: readonly Game24Item[]): Game24Move[] {
  const moves = new Map<string, Game24Move>();
  for (const [i, j] of pairs(items.length)) {
    for (const [x, y] of [
      [i, j],
      [j, i],
    ] as const) {
      for (const op of ['+', '-', '*', '/'] as const) {
        if ((op === '+' || op === '*') && x > y) continue;
        const move = combine(items, x, y, op);
        if (move && !moves.has(move.content)) moves.set(move.content, move);
      }
    }
  }
  return [...moves.values()];
}

function combine(items: readonly Game24Item[], i: number, j: number, op: Operator): Game24Move | undefined {
  const a = items[i]!;
  const b = items[j]!;
  const value = apply(a.value, op, b.value);
  if (!value) return undefined;
  const rest = items.filter((_, k) => k !== i && k !== j);
  const left = [...rest, { value, expression: `(${a.expression} ${op} ${b.expression})` }];
  const shown = left.map((item) => formatRational(item.value)).join(' ');
  return {
    content: `${formatRational(a.value)} ${op} ${formatRational(b.value)} = ${formatRational(value)} (left: ${shown})`,
    left,
  };
}
