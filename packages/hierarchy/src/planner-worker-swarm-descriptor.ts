import {
  type Agent,
  ConfigError,
  roleRefSchema,
  splitHead,
  type TopologyDescriptor,
  type WorstCase,
} from '@swarm/core';
import { z } from 'zod';
import { headOf, roleOf } from './descriptor-roles.js';
import { headCalls } from './head.js';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';

/** The JSON config a spec file may give a PlannerWorkerSwarm (every option but the members). */
export const plannerWorkerSwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    roles: z
      .strictObject({ planner: roleRefSchema.optional(), judge: roleRefSchema.optional() })
      .optional()
      .describe(
        'planner, judge: the name of an agent (who then does not work) or a model. Default: a separate planner on headModel, every agent a worker; the judge is the planner.',
      ),
    headModel: z
      .string()
      .min(1)
      .optional()
      .describe("The separate planner's model (default the first agent's)."),
    planner: z.string().optional().describe('Same as roles.planner (kept for older specs).'),
    judge: z.string().optional().describe('Same as roles.judge (kept for older specs).'),
    maxLoops: z.number().int().min(1).optional(),
    maxRetries: z.number().int().min(0).optional(),
    taskTimeoutMs: z.number().positive().optional(),
    maxWorkers: z.number().int().min(1).optional(),
    maxTasks: z.number().int().min(1).optional(),
    maxRepairs: z.number().int().min(0).optional(),
  })
  .strict();

/** The config of `plannerWorkerSwarmDescriptor`. */
export type PlannerWorkerSwarmConfig = z.infer<typeof plannerWorkerSwarmConfigSchema>;

/** Lets a router build a PlannerWorkerSwarm from a list of agents without depending on this package. */
export const plannerWorkerSwarmDescriptor: TopologyDescriptor<PlannerWorkerSwarmConfig> = {
  type: 'PlannerWorkerSwarm',
  description:
    'A planner breaks a goal into prioritized tasks with dependencies; a pool of interchangeable workers takes the most urgent ready task, failed tasks are retried with a time limit, and a judge decides after each cycle whether more work is needed. For goals that split into many similar work items, such as researching a list of topics.',
  minAgents: 1,
  configSchema: plannerWorkerSwarmConfigSchema,
  create(agents, config = {}) {
    const { planner, judge, workers } = roles(agents, config);
    const { planner: _p, judge: _j, roles: _r, headModel: _h, ...rest } = config;
    return new PlannerWorkerSwarm({ ...rest, planner, workers, ...(judge !== undefined && { judge }) });
  },
  worstCase(agents, config = {}): WorstCase {
    const { planner, judge, workers } = roles(agents, config);
    const planning = headCalls(planner, config.maxRepairs);
    const judging = headCalls(judge ?? planner, config.maxRepairs);
    const attempts = (config.maxRetries ?? 2) + 1;
    const taskCalls = (config.maxTasks ?? 10) * attempts * Math.max(...workers.map((w) => w.maxTurns));
    const perLoop = planning.typed + taskCalls + judging.typed;
    // The planner synthesizes the answer.
    return { maxCalls: (config.maxLoops ?? 3) * perLoop + planning.prose };
  },
};

// As swarms: every agent works and a separate planner runs on headModel (default the first agent's
// model), unless roles name an agent (who then only plans or judges) or give a model.
function roles(agents: readonly Agent<unknown>[], config: PlannerWorkerSwarmConfig) {
  const owner = 'PlannerWorkerSwarm descriptor';
  const plannerRole = roleOf('PlannerWorkerSwarm', 'planner', config.roles?.planner, config.planner);
  const judgeRole = roleOf('PlannerWorkerSwarm', 'judge', config.roles?.judge, config.judge);
  const planned = splitHead(owner, 'planner', agents, plannerRole, config.headModel);
  const judged = judgeRole === undefined ? undefined : splitHead(owner, 'judge', planned.workers, judgeRole);
  const workers = judged?.workers ?? planned.workers;
  if (workers.length === 0) {
    throw new ConfigError('PlannerWorkerSwarm descriptor: give a planner and at least one worker agent.');
  }
  return {
    planner: headOf('PlannerWorkerSwarm', 'planner', planned.head),
    judge: judged && headOf('PlannerWorkerSwarm', 'judge', judged.head),
    workers,
  };
}
