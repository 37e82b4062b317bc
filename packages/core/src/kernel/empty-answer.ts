import { SwarmError } from './errors.js';
import type { RunContext } from './run-context.js';

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

/** How many times a blank final answer is asked for before the run fails: the first try and one retry. */
const attemptsForAnswer = 2;

/**
 * The one rule for a run's final answer: `answer` (a text, or a member's result with its `output`)
 * that comes back blank is asked for once more, with an `answer.empty` event in the trace; blank
 * again, the run fails with `EmptyAnswerError`. The retry is an ordinary call of the run, so it
 * counts against its budget and limiter. `textOf` picks the answer out of another shape, or
 * returns undefined for a value that is no final answer (a handoff), which is taken as it is.
 */
export async function nonEmptyAnswer<T>(
  member: string,
  context: RunContext | undefined,
  answer: () => Promise<T>,
  textOf: (value: T) => string | undefined = defaultText,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const value = await answer();
    const text = textOf(value);
    if (text === undefined || text.trim() !== '') return value;
    context?.emit({ type: 'answer.empty', agent: member, attempt });
    if (attempt >= attemptsForAnswer) throw new EmptyAnswerError(member, attempt);
  }
}
