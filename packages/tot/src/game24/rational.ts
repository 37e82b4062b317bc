/** An exact fraction `n / d` in lowest terms with `d > 0`: no floating-point error in a 24 check. */
export interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

/** The fraction `n / d` in lowest terms; throws a RangeError when `d` is 0. */
export function rational(n: bigint | number, d: bigint | number = 1n): Rational {
  let num = BigInt(n);
  let den = BigInt(d);
  if (den === 0n) throw new RangeError('division by zero');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num < 0n ? -num : num, den);
  return { n: num / g, d: den / g };
}

/** `a + b`, `a - b`, `a * b` or `a / b` exactly; `undefined` for a division by zero. */
export function apply(a: Rational, op: Operator, b: Rational): Rational | undefined {
  switch (op) {
    case '+':
      return rational(a.n * b.d + b.n * a.d, a.d * b.d);
    case '-':
      return rational(a.n * b.d - b.n * a.d, a.d * b.d);
    case '*':
      return rational(a.n * b.n, a.d * b.d);
    case '/':
      return b.n === 0n ? undefined : rational(a.n * b.d, a.d * b.n);
  }
}

/** The four operators of the game. */
export type Operator = '+' | '-' | '*' | '/';

/** True when both fractions are the same number. */
export function equals(a: Rational, b: Rational): boolean {
  return a.n === b.n && a.d === b.d;
}

/** `"7"`, `"-3"` or `"5/2"`; `parseRational` reads it back. */
export function formatRational(r: Rational): string {
  return r.d === 1n ? `${r.n}` : `${r.n}/${r.d}`;
}

/** Reads `"7"`, `"-3"` or `"5/2"`; `undefined` for anything else. */
export function parseRational(text: string): Rational | undefined {
  const match = /^(-?\d+)(?:\/(\d+))?$/.exec(text.trim());
  if (!match || match[2] === '0') return undefined;
  return rational(BigInt(match[1]!), BigInt(match[2] ?? '1'));
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}
