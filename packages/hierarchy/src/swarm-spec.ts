import { z } from 'zod';
import { dependencyProblems } from './dependency-graph.js';

/** One order of the director: which agent does what, after which other orders. */
export interface HierarchicalOrder {
  id: string;
  agentName: string;
  task: string;
  dependsOn?: string[] | undefined;
}

/** The director's structured decision for one loop (seed 001's `SwarmSpec`, with ids and `done`). */
export interface SwarmSpec {
  plan: string;
  orders: HierarchicalOrder[];
  done: boolean;
}

/**
 * The schema of `SwarmSpec` for one run's agents. An order naming an agent that is not one of
 * `agentNames`, a `dependsOn` naming no order of the spec, a cycle, or an empty spec that is not
 * `done` fails validation, so `generateObject` sends the problem back to the director to repair:
 * such an order is never run. With `firstLoop`, an empty spec fails even when `done`: there are no
 * results yet to answer from, so `done` can only stop the run early from the second loop on.
 */
export function swarmSpecSchema(
  agentNames: readonly string[],
  maxOrders: number,
  options: { firstLoop?: boolean } = {},
) {
  const [first, ...rest] = agentNames;
  return z
    .object({
      plan: z.string().describe('How the task is split up, and why, in a few sentences.'),
      orders: z
        .array(
          z.object({
            id: z.string().min(1).describe('A short unique id for this order, e.g. "o1".'),
            agentName: z.enum([first!, ...rest]).describe('The agent who carries out this order.'),
            task: z.string().min(1).describe('Exactly what this agent must do.'),
            dependsOn: z
              .array(z.string())
              .optional()
              .describe('Ids of orders whose outputs this order needs; it runs after them.'),
          }),
        )
        .max(maxOrders)
        .describe('The orders of this round; independent ones run at the same time.'),
      done: z
        .boolean()
        .describe(
          'True when this is the last round: the results (with these orders, if any) answer the task.',
        ),
    })
    .superRefine((spec, issues) => {
      if (spec.orders.length === 0 && (options.firstLoop || !spec.done)) {
        issues.addIssue({
          code: 'custom',
          path: ['orders'],
          message: options.firstLoop
            ? 'there are no results yet: give at least one order'
            : 'give at least one order, or set done to true',
        });
      }
      for (const problem of dependencyProblems(spec.orders)) {
        issues.addIssue({ code: 'custom', path: ['orders'], message: problem });
      }
    });
}
