import { SwarmError } from './errors.js';
import { type RunContext, stateOf } from './run-context.js';

/**
 * A head or final member (a director, synthesizer, aggregator, judge, the only routed member)
 * answered with empty text, and again when asked once more: the run has no answer to give, so it
 * fails (code `NO_ANSWER`) instead of passing `''` off as a success.
 */
export class EmptyAnswerError extends SwarmError {
  /** Who answered empty. */
  readonly member: string;
  /** How many times it was asked. */
  readonly attempts: number;

  constructor(member: string, attempts: number) {
    super('NO_ANSWER', `"${member}" answered with empty text ${attempts} time(s); the run has no answer.`);
    this.name = 'EmptyAnswerError';
    this.member = member;
    this.attempts = attempts;
  }
}

function defaultText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return (value as { output: string }).output;
}

/**
 * The one rule for a run's final answer: `answer` (a text, or a member's result with its `output`)
 * must not come back blank. While it runs, an Agent named `member` running in `context` (the same
 * run, not a nested one) that ends with a blank answer asks its model once more, that final call
 * only, never its tools or the runs they start (an `answer.empty` event marks it). Blank at the
 * end, the run fails with `EmptyAnswerError` (code `NO_ANSWER`); `answer` is never called twice,
 * so no member's work is done again. `textOf` picks the answer out of another shape, or returns
 * undefined for a value that is no final answer (a handoff), which is taken as it is. With
 * `repeatable: true`, `answer` is itself one model call with no tools (a `generateObject`): it is
 * called once more as a whole.
 */
export async function nonEmptyAnswer<T>(
  member: string,
  context: RunContext | undefined,
  answer: () => Promise<T>,
  textOf: (value: T) => string | undefined = defaultText,
  options: { repeatable?: boolean } = {},
): Promise<T> {
  if (options.repeatable) return repeated(member, context, answer, textOf);
  const wanted = context === undefined ? undefined : wantAnswer(context, member);
  let value: T;
  try {
    value = await answer();
  } finally {
    if (context !== undefined) releaseAnswer(context, member, wanted!);
  }
  const text = textOf(value);
  if (text === undefined || text.trim() !== '') return value;
  const attempts = wanted?.retried ? 2 : 1;
  context?.emit({ type: 'answer.empty', agent: member, attempt: attempts });
  throw new EmptyAnswerError(member, attempts);
}

// A blank answer of a repeatable `answer` (one model call, no tools) asked for once more.
async function repeated<T>(
  member: string,
  context: RunContext | undefined,
  answer: () => Promise<T>,
  textOf: (value: T) => string | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const value = await answer();
    const text = textOf(value);
    if (text === undefined || text.trim() !== '') return value;
    context?.emit({ type: 'answer.empty', agent: member, attempt });
    if (attempt >= 2) throw new EmptyAnswerError(member, attempt);
  }
}

/**
 * For the Agent: whether the run wants `agent`'s answer non-blank and it has not asked again yet;
 * if so, marks it asked (the Agent then makes its final call once more). Internal to the package.
 */
export function retryBlankAnswer(context: RunContext, agent: string): boolean {
  const wanted = stateOf(context).root.answersWanted?.get(agent);
  if (wanted === undefined || wanted.retried) return false;
  wanted.retried = true;
  return true;
}

function wantAnswer(context: RunContext, member: string): { retried: boolean } {
  const root = stateOf(context).root;
  root.answersWanted ??= new Map();
  const wanted = { retried: false };
  root.answersWanted.set(member, wanted);
  return wanted;
}

function releaseAnswer(context: RunContext, member: string, wanted: { retried: boolean }): void {
  const root = stateOf(context).root;
  if (root.answersWanted?.get(member) === wanted) root.answersWanted.delete(member);
}
