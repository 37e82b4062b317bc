import { type Message, memberTurn } from '@swarm/core';
import type { JudgeVerdict, PlannedTask } from './planner-schemas.js';

/** A planned task as the result records it: its outcome, and the worker who took it. */
export interface TaskRecord {
  id: string;
  task: string;
  priority: number;
  dependsOn: string[];
  status: 'done' | 'failed';
  /** The worker that claimed it (its retries run on the same worker). */
  worker?: string;
  output?: string;
  error?: string;
  attempts: number;
}

/** One cycle of a PlannerWorkerSwarm: the tasks and how they went, then the judge's verdict. */
export interface PlannerCycle {
  tasks: TaskRecord[];
  verdict?: JudgeVerdict;
}

/** What the planner sees: the goal, and from the second cycle on the results so far and the judge's gaps. */
export function plannerTurns(
  goal: string,
  cycles: readonly PlannerCycle[],
  workers: readonly string[],
): Message[] {
  const last = cycles.at(-1);
  return [
    {
      role: 'user',
      content: `Goal: ${goal}\n\nA pool of ${workers.length} worker(s) (${workers.join(', ')}) takes the most urgent ready task first. Break the goal into self-contained tasks with a priority and the ids of the tasks whose outputs each one needs.`,
    },
    ...results(cycles),
    ...(last?.verdict
      ? [
          {
            role: 'user' as const,
            content: `The judge found gaps: ${list(last.verdict.gaps)}\nSuggested follow-up: ${list(last.verdict.followUp)}\nPlan the tasks of the next cycle to close them (new ids; earlier outputs are kept).`,
          },
        ]
      : []),
  ];
}

/** A worker's input: the goal, its task, and the outputs of the tasks it depends on, as typed turns. */
export function taskTurns(
  goal: string,
  task: PlannedTask,
  dependencies: readonly TaskRecord[],
  planner: string,
  worker: string,
): Message[] {
  return [
    { role: 'user', content: goal },
    ...dependencies.map((dep) => {
      const content = `Output of task ${dep.id} (${dep.task}):\n${dep.output ?? ''}`;
      return dep.worker === worker
        ? { role: 'assistant' as const, content }
        : memberTurn(dep.worker ?? 'worker', content);
    }),
    memberTurn(planner, `Your task (${task.id}): ${task.task}`),
  ];
}

/** What the judge (and the synthesis) reads: the goal and every task's outcome, then the request. */
export function reviewTurns(goal: string, cycles: readonly PlannerCycle[], request: string): Message[] {
  return [{ role: 'user', content: `Goal: ${goal}` }, ...results(cycles), { role: 'user', content: request }];
}

function results(cycles: readonly PlannerCycle[]): Message[] {
  return cycles.flatMap((cycle) =>
    cycle.tasks.map((t) =>
      memberTurn(
        t.worker ?? 'worker',
        t.status === 'done'
          ? `Task ${t.id}: ${t.task}\n\n${t.output ?? ''}`
          : `Task ${t.id}: ${t.task}\n\nFAILED after ${t.attempts} attempt(s): ${t.error ?? 'unknown error'}`,
      ),
    ),
  );
}

function list(items: readonly string[]): string {
  return items.length > 0 ? items.join('; ') : '(none)';
}
