import { z } from 'zod';
import { dependencyProblems } from './dependency-graph.js';

/** One task of the planner: what to do, how urgent it is (higher first), and what it waits for. */
export interface PlannedTask {
  id: string;
  task: string;
  priority: number;
  dependsOn?: string[] | undefined;
}

/**
 * The planner's schema for one cycle: tasks with priority (1 to 10) and dependencies. Unknown
 * dependencies, duplicate ids and cycles fail validation at plan time and go back to the planner.
 */
export function taskPlanSchema(maxTasks: number) {
  return z
    .object({
      tasks: z
        .array(
          z.object({
            id: z.string().min(1).describe('A short unique id, e.g. "t1".'),
            task: z.string().min(1).describe('What a worker must do, self-contained.'),
            priority: z.number().int().min(1).max(10).describe('1 (can wait) to 10 (most urgent).'),
            dependsOn: z.array(z.string()).optional().describe('Ids of tasks whose outputs this one needs.'),
          }),
        )
        .min(1)
        .max(maxTasks),
    })
    .superRefine((plan, issues) => {
      for (const problem of dependencyProblems(plan.tasks)) {
        issues.addIssue({ code: 'custom', path: ['tasks'], message: problem });
      }
    });
}

/** The judge's verdict after each cycle: is the goal met, how well, what is missing, what to do next. */
export const judgeVerdictSchema = z.object({
  isComplete: z.boolean().describe('True when the results fully achieve the goal.'),
  quality: z.number().min(0).max(10).describe('Quality of the results so far, 0 to 10.'),
  gaps: z.array(z.string()).describe('What is missing or wrong.'),
  followUp: z.array(z.string()).describe('Tasks that would close the gaps, for the next cycle.'),
});

/** The judge's verdict (`judgeVerdictSchema`). */
export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;
