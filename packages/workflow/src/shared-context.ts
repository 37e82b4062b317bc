import { ConfigError, type Message } from '@swarm/core';
import { taskTurn } from './member-run.js';

/**
 * What a member of a pipeline reads: `'full'` (swarms' default) the task and every earlier turn of
 * the run, each as its member's typed turn; `'previous'` the task and the step before it only.
 */
export type ContextMode = 'previous' | 'full';

/** Checks a `context` option: undefined (then `'full'`, as swarms) or one of the two modes. */
export function contextOption(owner: string, value: unknown): ContextMode {
  const chosen = value ?? 'full';
  if (chosen !== 'full' && chosen !== 'previous') {
    throw new ConfigError(`${owner}: context must be 'full' or 'previous' (got ${JSON.stringify(value)}).`);
  }
  return chosen;
}

/** Where a member stands in its team: its name, then who works before and after it. */
export interface TeamPlace {
  name: string;
  /** For example `'sequential workflow a -> b -> c'` or `'flow "a -> b, c"'`. */
  team: string;
  /** 1-based position among the steps, and how many there are. */
  step: number;
  steps: number;
  before: readonly string[];
  after: readonly string[];
}

/** The note `teamAwareness` gives a member (swarms' team_awareness): who it is, and who is before and after it. */
export function teamNote(place: TeamPlace): string {
  const names = (list: readonly string[], none: string) => (list.length > 0 ? list.join(', ') : none);
  return `You are "${place.name}", step ${place.step} of ${place.steps} in the ${place.team}. Before you: ${names(place.before, 'nobody, you start')}. After you: ${names(place.after, 'nobody, your answer is the final one')}.`;
}

/** A member's input with the team note as a user turn right after the task (the input unchanged without a note). */
export function withTeamNote(input: string | Message[], note: string | undefined): string | Message[] {
  if (note === undefined) return input;
  const [task, ...rest] = typeof input === 'string' ? [taskTurn(input)] : input;
  return [task!, { role: 'user', content: note }, ...rest];
}
