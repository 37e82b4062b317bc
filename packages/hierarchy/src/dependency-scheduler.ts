import { isAbort, isPause, RunPausedError } from '@swarm/core';
import type { DependencyNode } from './dependency-graph.js';

/** An item the scheduler can run: its id, what it waits for, and (optionally) how urgent it is. */
export interface SchedulableItem extends DependencyNode {
  /** Higher runs first among ready items; ties go in input order. */
  priority?: number;
}

/** How one item ended: done with a value, failed with an error, or never run (and why). */
export type ItemOutcome<R> =
  | { status: 'done'; value: R }
  | { status: 'failed'; error: unknown }
  | { status: 'blocked'; dependency: string }
  | { status: 'notRun' };

/** Options of `runByDependencies`. */
export interface RunByDependenciesOptions<R> {
  /** Items in flight at once (default: all that are ready). */
  concurrency?: number;
  /**
   * Errors that stop the whole schedule (an abort, a spent budget): no new item starts, the
   * running ones finish, and the first such error is returned as `stoppedBy`. A pause
   * (`RunPausedError`) that `isFatal` accepts stops only what depends on its item: the other items
   * go on to the end, and every pause comes back merged as `stoppedBy` (only an abort wins over it).
   */
  isFatal?: (error: unknown) => boolean;
  /** Called once per item as soon as its outcome is known (for live events). */
  onOutcome?: (outcome: ItemOutcome<R>, index: number) => void;
}

/** Every item's outcome in input order, and the fatal error that stopped the schedule, if one did. */
export interface ScheduleResult<R> {
  outcomes: ItemOutcome<R>[];
  stoppedBy?: unknown;
}

/**
 * Runs items as their dependencies allow: an item starts once everything it depends on is done,
 * up to `concurrency` at a time, the highest `priority` first. An item whose dependency failed (or
 * was itself blocked) never runs and is `blocked`, so nothing waits forever. Dependencies must
 * name known ids and hold no cycle (check with `dependencyProblems` first).
 */
export async function runByDependencies<T extends SchedulableItem, R>(
  items: readonly T[],
  run: (item: T, index: number) => Promise<R>,
  options: RunByDependenciesOptions<R> = {},
): Promise<ScheduleResult<R>> {
  const { concurrency = Number.POSITIVE_INFINITY, isFatal = () => false, onOutcome } = options;
  const outcomes = new Array<ItemOutcome<R> | undefined>(items.length);
  const settle = (index: number, outcome: ItemOutcome<R>) => {
    outcomes[index] = outcome;
    onOutcome?.(outcome, index);
  };
  const indexOf = new Map(items.map((item, index) => [item.id, index]));
  const started = new Set<number>();
  const inFlight = new Set<Promise<void>>();
  let stop: { error: unknown } | undefined;
  const pauses: RunPausedError[] = [];
  const paused = new Set<number>();

  const dependencyState = (item: T): 'ready' | 'waiting' | { blockedBy: string } => {
    let waiting = false;
    for (const id of item.dependsOn ?? []) {
      const outcome = outcomes[indexOf.get(id) ?? -1];
      if (outcome === undefined) waiting = true;
      else if (outcome.status !== 'done') return { blockedBy: id };
    }
    return waiting ? 'waiting' : 'ready';
  };

  // Marks every item whose dependency failed, until no more change (blocking spreads down chains).
  const blockDependents = () => {
    for (let changed = true; changed; ) {
      changed = false;
      items.forEach((item, index) => {
        if (started.has(index) || outcomes[index]) return;
        const state = dependencyState(item);
        if (typeof state === 'object') {
          // Waiting on a paused item is not being blocked by a failure: it runs when the run resumes.
          const waits = paused.has(indexOf.get(state.blockedBy) ?? -1);
          if (waits) paused.add(index);
          settle(index, waits ? { status: 'notRun' } : { status: 'blocked', dependency: state.blockedBy });
          changed = true;
        }
      });
    }
  };

  const nextReady = (): number | undefined => {
    let best: number | undefined;
    items.forEach((item, index) => {
      if (started.has(index) || outcomes[index] || dependencyState(item) !== 'ready') return;
      if (best === undefined || (item.priority ?? 0) > (items[best]!.priority ?? 0)) best = index;
    });
    return best;
  };

  const launch = (index: number) => {
    started.add(index);
    const settled = run(items[index]!, index).then(
      (value) => settle(index, { status: 'done', value }),
      (error: unknown) => {
        if (isFatal(error) && isPause(error)) {
          pauses.push(error);
          paused.add(index);
          settle(index, { status: 'notRun' });
        } else if (isFatal(error)) {
          if (!stop || (isAbort(error) && !isAbort(stop.error))) stop = { error };
          settle(index, { status: 'notRun' });
        } else settle(index, { status: 'failed', error });
      },
    );
    const tracked = settled.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  for (;;) {
    blockDependents();
    while (!stop && inFlight.size < concurrency) {
      const index = nextReady();
      if (index === undefined) break;
      launch(index);
    }
    if (inFlight.size === 0) break;
    await Promise.race(inFlight);
  }
  items.forEach((_, index) => {
    if (!outcomes[index]) settle(index, { status: 'notRun' });
  });
  const result: ScheduleResult<R> = { outcomes: outcomes as ItemOutcome<R>[] };
  // An abort ends the run whatever else happened; a pause comes before a budget stop, which would
  // answer without the paused items' work.
  if (stop && isAbort(stop.error)) result.stoppedBy = stop.error;
  else if (pauses.length > 0) result.stoppedBy = RunPausedError.merge(pauses);
  else if (stop) result.stoppedBy = stop.error;
  return result;
}
