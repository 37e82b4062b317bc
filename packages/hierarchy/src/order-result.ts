import { memberTurn, turnsAsText } from '@swarm/core';
import type { ItemOutcome } from './dependency-scheduler.js';

/** How one order (or task) ended, as the result records it. */
export interface WorkOutcome {
  status: 'done' | 'failed';
  /** The member's answer, when done. */
  output?: string;
  /** Why it failed or never ran, when failed. */
  error?: string;
  /** Attempts made (0 when it never ran). */
  attempts: number;
}

/** What a successful piece of work gives back to the scheduler: its text and the attempts it took. */
export interface Attempted {
  output: string;
  attempts: number;
}

/**
 * A scheduler outcome as a plain record: done work with its output; failures with their message
 * and attempt count; work that never ran with the reason (a failed dependency, or the run stopping).
 */
export function workOutcome(outcome: ItemOutcome<Attempted>, kind: string): WorkOutcome {
  switch (outcome.status) {
    case 'done':
      return { status: 'done', output: outcome.value.output, attempts: outcome.value.attempts };
    case 'failed': {
      const { error } = outcome;
      const attempts =
        typeof error === 'object' && error !== null && 'attempts' in error ? Number(error.attempts) : 1;
      return { status: 'failed', error: error instanceof Error ? error.message : String(error), attempts };
    }
    case 'blocked':
      return {
        status: 'failed',
        error: `not run: it depends on ${kind} "${outcome.dependency}", which failed`,
        attempts: 0,
      };
    case 'notRun':
      return { status: 'failed', error: 'not run: the run stopped before it', attempts: 0 };
  }
}

/**
 * What a run stopped by its budget can still answer with: the finished work's outputs, each under
 * the name of the member who wrote it; undefined when nothing finished.
 */
export function finishedOutputs(
  work: readonly { status: 'done' | 'failed'; output?: string; by: string }[],
): string | undefined {
  const done = work.filter((item) => item.status === 'done');
  if (done.length === 0) return undefined;
  return turnsAsText(done.map((item) => memberTurn(item.by, item.output ?? '')));
}
