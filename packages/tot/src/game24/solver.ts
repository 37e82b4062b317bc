import { apply, equals, formatRational, type Operator, type Rational, rational } from './rational.js';

const twentyFour = rational(24n);
const operators: Operator[] = ['+', '-', '*', '/'];
const reachable = new Map<string, boolean>();

/** Whether the numbers can still make 24 with `+ - * /`, each used once (exact, memoized). */
export function canReach24(values: readonly Rational[]): boolean {
  if (values.length === 0) return false;
  if (values.length === 1) return equals(values[0]!, twentyFour);
  const key = values.map(formatRational).sort().join(' ');
  const known = reachable.get(key);
  if (known !== undefined) return known;
  let found = false;
  for (const [i, j] of pairs(values.length)) {
    const rest = values.filter((_, k) => k !== i && k !== j);
    for (const op of operators) {
      for (const [a, b] of [
        [values[i]!, values[j]!],
        [values[j]!, values[i]!],
      ] as const) {
        const combined = apply(a, op, b);
        if (combined && canReach24([...rest, combined])) {
          found = true;
          break;
        }
      }
      if (found) break;
    }
    if (found) break;
  }
  reachable.set(key, found);
  return found;
}

/** Every unordered pair of indices below `n`. */
export function pairs(n: number): [number, number][] {
  const result: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) result.push([i, j]);
  return result;
}
