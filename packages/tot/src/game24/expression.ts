import { apply, type Operator, type Rational, rational } from './rational.js';

/** A parsed expression: its exact value and the integer literals it uses, in order. */
export interface ParsedExpression {
  value: Rational;
  numbers: number[];
}

/**
 * Parses and evaluates an arithmetic expression of integers, `+ - * /` (also `×` and `÷`) and
 * parentheses, exactly, with a small recursive-descent parser (never `eval`). Throws a SyntaxError
 * on anything else, a RangeError on a division by zero.
 */
export function parseExpression(text: string): ParsedExpression {
  const tokens = tokenize(text);
  const numbers: number[] = [];
  let at = 0;

  const peek = () => tokens[at];
  const expression = (): Rational => {
    let value = term();
    for (let t = peek(); t === '+' || t === '-'; t = peek()) {
      at += 1;
      value = apply(value, t, term())!;
    }
    return value;
  };
  const term = (): Rational => {
    let value = factor();
    for (let t = peek(); t === '*' || t === '/'; t = peek()) {
      at += 1;
      const result = apply(value, t, factor());
      if (!result) throw new RangeError('division by zero');
      value = result;
    }
    return value;
  };
  const factor = (): Rational => {
    const t = tokens[at++];
    if (t === '(') {
      const value = expression();
      if (tokens[at++] !== ')') throw new SyntaxError(`expected ")" in ${JSON.stringify(text)}`);
      return value;
    }
    if (t !== undefined && /^\d+$/.test(t)) {
      numbers.push(Number(t));
      return rational(BigInt(t));
    }
    throw new SyntaxError(
      `unexpected ${t === undefined ? 'end' : JSON.stringify(t)} in ${JSON.stringify(text)}`,
    );
  };

  const value = expression();
  if (at !== tokens.length)
    throw new SyntaxError(`unexpected ${JSON.stringify(tokens[at])} in ${JSON.stringify(text)}`);
  return { value, numbers };
}

const operatorAliases: Record<string, Operator> = { '×': '*', x: '*', '÷': '/', '−': '-' };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(/\s*(\d+|[-+*/()×÷−x]|\S)/gy)) {
    const token = match[1]!;
    tokens.push(operatorAliases[token] ?? token);
  }
  return tokens;
}
