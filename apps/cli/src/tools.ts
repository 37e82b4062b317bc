import { type Tool, tool } from '@swarm/core';
import { z } from 'zod';

/** Arithmetic on numbers and + - * / ( ), evaluated by a small parser (never `eval`). */
export function calculate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, ''))
    throw new Error(`not an arithmetic expression: ${expression}`);
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): number => {
    const token = tokens[i++];
    if (token === '(') {
      const value = sum();
      if (tokens[i++] !== ')') throw new Error('missing )');
      return value;
    }
    if (token === '-') return -primary();
    const value = Number(token);
    if (token === undefined || Number.isNaN(value)) throw new Error(`unexpected ${token ?? 'end'}`);
    return value;
  };
  const product = (): number => {
    let value = primary();
    while (peek() === '*' || peek() === '/')
      value = tokens[i++] === '*' ? value * primary() : value / primary();
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === '+' || peek() === '-')
      value = tokens[i++] === '+' ? value + product() : value - product();
    return value;
  };
  const value = sum();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]}`);
  return value;
}

/** The tools a spec's agents may name: small, offline and side-effect free. */
export const builtinTools: Record<string, Tool> = {
  calculator: tool({
    name: 'calculator',
    description: 'Evaluates an arithmetic expression with + - * / and parentheses.',
    parameters: z.object({ expression: z.string() }),
    execute: ({ expression }) => String(calculate(expression)),
  }),
  clock: tool({
    name: 'clock',
    description: 'The current date and time (ISO 8601, UTC).',
    parameters: z.object({}),
    execute: () => new Date().toISOString(),
  }),
  word_count: tool({
    name: 'word_count',
    description: 'Counts the words of a text.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => String(text.split(/\s+/).filter(Boolean).length),
  }),
};
