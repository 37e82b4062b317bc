import { ConfigError } from '@swarm/core';

/**
 * The flow language of AgentRearrange:
 *
 * ```
 * flow     := sequence
 * sequence := step ('->' step)*        steps run one after another
 * step     := item (',' item)*         items of a step run in parallel
 * item     := NAME | 'H' | '(' sequence ')'
 * ```
 *
 * A NAME is a member's name (it may hold spaces, not `,`, `(`, `)` or `->`); `H` is the human
 * step; parentheses group a sequence into one parallel branch. Columns are 1-based.
 */
export type FlowItem =
  | { kind: 'member'; name: string; column: number }
  | { kind: 'human'; column: number }
  | { kind: 'group'; steps: FlowStep[]; column: number };

/** One step of a flow: the items that run in parallel on the same input. */
export type FlowStep = FlowItem[];

/** The name of the human step in a flow. */
export const humanStep = 'H';

type Token =
  | { kind: 'arrow' | 'comma' | 'open' | 'close' | 'end'; column: number }
  | { kind: 'name'; name: string; column: number };

/**
 * Parses a flow into its steps and checks every name against `members`. Any problem is a
 * ConfigError that quotes the flow with a caret under the column at fault.
 */
export function parseFlow(flow: string, members: ReadonlySet<string>, owner = 'AgentRearrange'): FlowStep[] {
  if (typeof flow !== 'string') throw new ConfigError(`${owner}: flow must be a string such as "a -> b, c".`);
  const fail = (column: number, message: string): never => {
    throw new ConfigError(`${owner}: ${message} at column ${column} of the flow:\n${pointAt(flow, column)}`);
  };
  const tokens = tokenize(flow);
  let at = 0;
  const peek = () => tokens[at]!;
  const next = () => tokens[at++]!;

  const sequence = (): FlowStep[] => {
    const steps = [step()];
    while (peek().kind === 'arrow') {
      next();
      steps.push(step());
    }
    return steps;
  };
  const step = (): FlowStep => {
    const items = [item()];
    while (peek().kind === 'comma') {
      next();
      items.push(item());
    }
    return items;
  };
  const item = (): FlowItem => {
    const token = next();
    switch (token.kind) {
      case 'name':
        if (token.name === humanStep) return { kind: 'human', column: token.column };
        if (!members.has(token.name)) {
          const known = [...members].map((m) => `"${m}"`).join(', ');
          fail(token.column, `unknown member "${token.name}" (members: ${known}; H for a human)`);
        }
        return { kind: 'member', name: token.name, column: token.column };
      case 'open': {
        if (peek().kind === 'close') fail(peek().column, 'empty group "()"');
        const steps = sequence();
        if (peek().kind !== 'close')
          fail(peek().column, `missing ")" to close the "(" at column ${token.column}`);
        next();
        return { kind: 'group', steps, column: token.column };
      }
      case 'arrow':
        return fail(token.column, 'empty step: a member must come before "->"');
      case 'comma':
        return fail(token.column, 'empty member: a member must come before ","');
      case 'close':
        return fail(token.column, 'a member must come before ")"');
      case 'end':
        return fail(
          token.column,
          at === 1 ? 'the flow is empty' : 'the flow ends where a member was expected',
        );
    }
  };

  const steps = sequence();
  const rest = peek();
  if (rest.kind === 'close') fail(rest.column, 'unmatched ")"');
  // Two names side by side cannot happen (a name runs to the next symbol), so only ")" is left over.
  return steps;
}

/** Splits a flow into tokens: `->`, `,`, `(`, `)`, and names (trimmed runs of anything else). */
function tokenize(flow: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < flow.length) {
    const char = flow[i]!;
    const column = i + 1;
    if (/\s/.test(char)) {
      i += 1;
    } else if (flow.startsWith('->', i)) {
      tokens.push({ kind: 'arrow', column });
      i += 2;
    } else if (char === ',' || char === '(' || char === ')') {
      tokens.push({ kind: char === ',' ? 'comma' : char === '(' ? 'open' : 'close', column });
      i += 1;
    } else {
      let end = i;
      while (end < flow.length && !',()'.includes(flow[end]!) && !flow.startsWith('->', end)) end += 1;
      tokens.push({ kind: 'name', name: flow.slice(i, end).trim(), column });
      i = end;
    }
  }
  tokens.push({ kind: 'end', column: flow.length + 1 });
  return tokens;
}

/** The flow on one line and a caret under `column`, both indented. */
function pointAt(flow: string, column: number): string {
  const line = flow.replace(/\s/g, ' ');
  return `  ${line}\n  ${' '.repeat(column - 1)}^`;
}

/** Every name the flow places, in the order written (repeats included). */
export function flowMembers(steps: readonly FlowStep[]): string[] {
  return steps.flatMap((step) =>
    step.flatMap((item) =>
      item.kind === 'member' ? [item.name] : item.kind === 'group' ? flowMembers(item.steps) : [],
    ),
  );
}

/** True when the flow has a human step anywhere. */
export function hasHumanStep(steps: readonly FlowStep[]): boolean {
  return steps.some((step) =>
    step.some((item) => item.kind === 'human' || (item.kind === 'group' && hasHumanStep(item.steps))),
  );
}
