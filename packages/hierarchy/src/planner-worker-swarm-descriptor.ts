import { type Agent, ConfigError, type TopologyDescriptor, type WorstCase } from '@swarm/core';
import { z } from 'zod';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';

/** The JSON config a spec file may give a PlannerWorkerSwarm (every option but the members). */
export const plannerWorkerSwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    planner: z
      .string()
      .optional()
      .describe(
        'The name of the agent who plans (default the first), or a model string for a separate planner.',
      ),
    judge: z.string().optional().describe('An agent name or a model string (default the planner).'),
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
  minAgents: 2,
  configSchema: plannerWorkerSwarmConfigSchema,
  create(agents, config = {}) {
    const { planner, judge, workers } = roles(agents, config);
    const { planner: _p, judge: _j, ...rest } = config;
    return new PlannerWorkerSwarm({ ...rest, planner, workers, ...(judge !== undefined && { judge }) });
  },
  worstCase(agents, config = {}): WorstCase {
    const { workers } = roles(agents, config);
    const structured = (config.maxRepairs ?? 2) + 1;
    const attempts = (config.maxRetries ?? 2) + 1;
    const taskCalls = (config.maxTasks ?? 10) * attempts * Math.max(...workers.map((w) => w.maxTurns));
    return { maxCalls: (config.maxLoops ?? 3) * (structured + taskCalls + structured) + 1 };
  },
};

// The planner and judge are agents named in the config (who then do not work) or model strings; by default the first agent plans.
function roles(agents: readonly Agent[], config: PlannerWorkerSwarmConfig) {
  const byName = (name: string | undefined) => agents.find((a) => a.name === name);
  const planner: Agent | string | undefined =
    config.planner === undefined ? agents[0] : (byName(config.planner) ?? config.planner);
  const judge: Agent | string | undefined =
    config.judge === undefined ? undefined : (byName(config.judge) ?? config.judge);
  const workers = agents.filter((a) => a !== planner && a !== judge);
  if (planner === undefined || workers.length === 0) {
    throw new ConfigError('PlannerWorkerSwarm descriptor: give a planner and at least one worker agent.');
  }
  return { planner, judge, workers };
}
