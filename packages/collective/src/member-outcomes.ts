import { type BudgetExceededError, budgetStop, errorMessage, SwarmError } from '@swarm/core';

/** A member's answer. */
export interface MemberAnswer {
  agent: string;
  output: string;
}

/** A member whose call failed: its name and the error message (the run goes on without it). */
export interface MemberFailure {
  agent: string;
  error: string;
}

/**
 * The run's last written step (a consensus, a report, a chairman's or aggregator's answer):
 * `write()`'s output, unless the run already stopped for its budget or the budget stops `write`
 * itself; then `fallback` (the answer from what the run has) stands and the stop comes back.
 * Any other error is thrown.
 */
export async function writeUnlessStopped(
  stop: BudgetExceededError | undefined,
  fallback: string,
  write: () => Promise<{ output: string }>,
): Promise<{ output: string; stop?: BudgetExceededError }> {
  if (stop) return { output: fallback, stop };
  try {
    return { output: (await write()).output };
  } catch (error) {
    if (budgetStop(error)) return { output: fallback, stop: error as BudgetExceededError };
    throw error;
  }
}

/** Members' failures as one line (`name: error; name: error`), for an error message. */
export function describeFailures(failures: readonly { agent: string; error: string }[]): string {
  return failures.map((f) => `${f.agent}: ${f.error}`).join('; ');
}

/** The failure record of one member. */
export function failure(agent: string, error: unknown): MemberFailure {
  return { agent, error: errorMessage(error) };
}

/** The run has nothing to answer from: every member that could give an answer failed. */
export function noAnswer(message: string, cause?: unknown): SwarmError {
  return new SwarmError('NO_ANSWER', message, { cause });
}
