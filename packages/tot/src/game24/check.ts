import { parseExpression } from './expression.js';
import { equals, formatRational, rational } from './rational.js';

/** The verdict on one Game of 24 answer, with the reason when it fails. */
export interface Game24Check {
  ok: boolean;
  reason: string;
}

const twentyFour = rational(24n);

/**
 * Checks an answer exactly: the expression (text after `=` and an `Answer:` prefix are ignored, as
 * in the paper's checker) must use each of the four numbers exactly once and equal 24.
 */
export function checkGame24(answer: string, numbers: readonly number[]): Game24Check {
  const expression = (answer.split('=')[0] ?? '').replace(/^\s*answer\s*:/i, '').trim();
  let parsed: ReturnType<typeof parseExpression>;
  try {
    parsed = parseExpression(expression);
  } catch (error) {
    return { ok: false, reason: `not a valid expression: ${(error as Error).message}` };
  }
  const used = [...parsed.numbers].sort((a, b) => a - b).join(' ');
  const given = [...numbers].sort((a, b) => a - b).join(' ');
  if (used !== given) return { ok: false, reason: `uses ${used || 'no numbers'}, not ${given}` };
  if (!equals(parsed.value, twentyFour))
    return { ok: false, reason: `equals ${formatRational(parsed.value)}, not 24` };
  return { ok: true, reason: 'uses each number once and equals 24' };
}
