import {
  BaseTopology,
  budgetStop,
  concurrencyOption,
  type GuardrailOptions,
  integerOption,
  isRunStop,
  type Member,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyResult,
  timeoutOption,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import type { z } from 'zod';
import { withRetries } from './attempts.js';
import { runByDependencies } from './dependency-scheduler.js';
import { answerSchema, Head, type HeadLike } from './head.js';
import { type Attempted, finishedOutputs, workOutcome } from './order-result.js';
import {
  type JudgeVerdict,
  judgeVerdictSchema,
  type PlannedTask,
  taskPlanSchema,
} from './planner-schemas.js';
import { type PlannerCycle, plannerTurns, reviewTurns, type TaskRecord, taskTurns } from './planner-turns.js';
import { withTaskTimeout } from './task-timeout.js';
import { WorkerPool } from './worker-pool.js';

/** Options of a PlannerWorkerSwarm. */
export interface PlannerWorkerSwarmOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /**
   * Breaks the goal into prioritized tasks with dependencies: an Agent (run as it is, nested in the
   * run: its tools, guardrails and settings hold), or a model.
   */
  planner: HeadLike;
  /** The pool: each free worker claims the most urgent ready task. Agents or whole topologies. */
  workers: Member[];
  /** Judges each cycle's results (default: the planner). */
  judge?: HeadLike;
  /**
   * Writes the final answer from the results (default: the planner). An Agent with its own
   * `outputType` types the answer (`finalOutput`) as the swarm's `outputType` would. A head Agent
   * with an outputType that does not write the answer (a planner or judge beside another
   * synthesizer) is a ConfigError.
   */
  synthesizer?: HeadLike;
  /** Cycles of plan, work and judgement (default 3); a complete verdict stops earlier. */
  maxLoops?: number;
  /** Extra attempts for a failing task before it fails, and its dependents with it (default 2). */
  maxRetries?: number;
  /** Time one attempt at a task may take before it is cancelled (default 120 000 ms). */
  taskTimeoutMs?: number;
  /** Tasks in flight at once (default and at most: the number of workers). */
  maxWorkers?: number;
  /** Most tasks in one plan (default 10): a bound on one cycle's cost. */
  maxTasks?: number;
  /**
   * Invalid plans (unknown dependencies, cycles), verdicts and typed syntheses sent back for repair
   * (default 2, or a head Agent's own `maxOutputRepairs`; given, it replaces that).
   */
  maxRepairs?: number;
  /** The synthesis as a validated object of this `z.object(...)` (`result.finalOutput`), repaired up to `maxRepairs` times. */
  outputType?: z.ZodType<TOutput>;
}

/** The result of a PlannerWorkerSwarm run: the answer, and every cycle's tasks and verdict. */
export interface PlannerWorkerSwarmResult<TOutput = string> extends TopologyResult {
  /** With `outputType`: the synthesis as that object (absent after a budget stop). */
  finalOutput?: TOutput;
  cycles: PlannerCycle[];
}

const PLANNER_INSTRUCTIONS =
  'You are a planner. You break a goal into small, self-contained tasks for a pool of workers, and you write the final answer from their results.';
const JUDGE_INSTRUCTIONS =
  'You are a strict judge. You decide whether work results achieve a goal, rate their quality and name what is missing.';

/**
 * A planner writes prioritized tasks with dependencies, a pool of workers claims the most urgent
 * ready task, failures are retried then fail their dependents, every attempt has a time limit, and
 * a judge decides after each cycle whether another is needed. The planner synthesizes the answer.
 */
export class PlannerWorkerSwarm<TOutput = string> extends BaseTopology<PlannerWorkerSwarmResult<TOutput>> {
  readonly type = 'PlannerWorkerSwarm';
  readonly name: string;
  readonly workers: readonly Member[];
  readonly maxLoops: number;
  readonly maxRetries: number;
  readonly taskTimeoutMs: number;
  readonly maxWorkers: number;
  readonly maxTasks: number;
  readonly maxRepairs: number;
  readonly #planner: Head;
  readonly #judge: Head;
  readonly #synthesizer: Head;
  // Made once: core converts a schema to JSON Schema once per schema object (see HierarchicalSwarm).
  #planSchema: ReturnType<typeof taskPlanSchema> | undefined;
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: PlannerWorkerSwarmOptions<TOutput>) {
    super();
    const owner = 'PlannerWorkerSwarm';
    this.name = options.name ?? owner;
    this.workers = validateMembers(options.workers, owner, { option: 'workers', min: 1 });
    this.maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    const synthesizer = options.synthesizer ?? options.planner;
    const head = (who: HeadLike, option: string, name: string, instructions: string) =>
      new Head(who, {
        owner,
        option,
        name,
        instructions,
        // The planner and the judge are the synthesizer when they are the same Agent.
        answers: who === synthesizer,
        ...(options.maxRepairs !== undefined && { maxRepairs: this.maxRepairs }),
      });
    this.#planner = head(options.planner, 'planner', 'planner', PLANNER_INSTRUCTIONS);
    this.#judge = head(options.judge ?? options.planner, 'judge', 'judge', JUDGE_INSTRUCTIONS);
    this.#synthesizer = head(synthesizer, 'synthesizer', 'planner', PLANNER_INSTRUCTIONS);
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 3, 1);
    this.maxRetries = integerOption(owner, 'maxRetries', options.maxRetries, 2, 0);
    this.taskTimeoutMs = timeoutOption(owner, 'taskTimeoutMs', options.taskTimeoutMs, 120_000);
    this.maxWorkers = Math.min(
      concurrencyOption(owner, 'maxWorkers', options.maxWorkers),
      this.workers.length,
    );
    this.maxTasks = integerOption(owner, 'maxTasks', options.maxTasks, 10, 1);
    this.#outputType = answerSchema(
      owner,
      'synthesizer',
      validateOutputType(options.outputType, owner),
      this.#synthesizer,
    );
    this.withGuardrails(options);
  }

  /** Runs cycles of plan, work and judgement until the judge is satisfied or `maxLoops`, then synthesizes. */
  run(goal: string, options: RunOptions = {}): Promise<PlannerWorkerSwarmResult<TOutput>> {
    return runTopology<PlannerWorkerSwarmResult<TOutput>>(this, { task: goal }, options, async (context) => {
      const cycles: PlannerCycle[] = [];
      try {
        for (let loop = 1; loop <= this.maxLoops; loop++) {
          const tasks = await this.#plan(goal, cycles, loop, context);
          const cycle: PlannerCycle = { tasks: [] };
          cycles.push(cycle);
          await this.#work(goal, tasks, cycle, loop, context);
          cycle.verdict = await this.#judgement(goal, cycles, loop, context);
          if (cycle.verdict.isComplete) break;
        }
        const { output, finalOutput } = await this.#synthesizer.final(
          reviewTurns(
            goal,
            cycles,
            'Write the final answer to the goal from these results. Where a task failed, say plainly what is missing.',
          ),
          { context, purpose: 'synthesis', outputType: this.#outputType },
        );
        return { output, ...(finalOutput !== undefined && { finalOutput: finalOutput as TOutput }), cycles };
      } catch (error) {
        const reason = budgetStop(error);
        const answer = reason && answerFromTasks(cycles);
        if (!reason || answer === undefined) throw error;
        return { output: answer, cycles, interrupted: true, interruptionReason: reason };
      }
    });
  }

  async #plan(
    goal: string,
    cycles: readonly PlannerCycle[],
    loop: number,
    context: RunContext,
  ): Promise<PlannedTask[]> {
    this.#planSchema ??= taskPlanSchema(this.maxTasks);
    const plan = await this.#planner.object(
      this.#planSchema,
      plannerTurns(
        goal,
        cycles,
        this.workers.map((w) => w.name),
      ),
      { context, purpose: 'planner' },
    );
    context.emit({ type: 'planner.plan', agent: this.#planner.name, loop, tasks: plan.tasks });
    return plan.tasks;
  }

  // The pool works through the tasks: most urgent ready task first, each attempt under its time limit.
  async #work(goal: string, tasks: PlannedTask[], cycle: PlannerCycle, loop: number, context: RunContext) {
    const pool = new WorkerPool(this.workers);
    const finished = new Map<string, TaskRecord>();
    const claimedBy = new Map<string, string>();
    const items = tasks.map((t) => ({ ...t, dependsOn: t.dependsOn ?? [] }));
    const { outcomes, stoppedBy } = await runByDependencies(
      items,
      async (task): Promise<Attempted> => {
        const worker = pool.claim();
        claimedBy.set(task.id, worker.name);
        try {
          const input = taskTurns(
            goal,
            task,
            task.dependsOn.map((id) => finished.get(id)!),
            this.#planner.name,
            worker.name,
          );
          const { value, attempts } = await withRetries(this.maxRetries, async (attempt) => {
            context.emit({ type: 'planner.task.start', agent: worker.name, loop, id: task.id, attempt });
            return withTaskTimeout(context, `task ${task.id}`, this.taskTimeoutMs, async (taskContext) => {
              return (await runMember(worker, input, taskContext)).output;
            });
          });
          finished.set(task.id, { ...task, worker: worker.name, status: 'done', output: value, attempts });
          return { output: value, attempts };
        } finally {
          pool.release(worker);
        }
      },
      {
        concurrency: this.maxWorkers,
        isFatal: isRunStop,
        onOutcome: (outcome, i) => {
          const { status, attempts, error } = workOutcome(outcome, 'task');
          context.emit({
            type: 'planner.task.end',
            agent: claimedBy.get(items[i]!.id),
            loop,
            id: items[i]!.id,
            status,
            attempts,
            ...(error !== undefined && { error }),
          });
        },
      },
    );
    cycle.tasks = items.map((task, i) => {
      const worker = claimedBy.get(task.id);
      return { ...task, ...(worker !== undefined && { worker }), ...workOutcome(outcomes[i]!, 'task') };
    });
    if (stoppedBy !== undefined) throw stoppedBy;
  }

  async #judgement(
    goal: string,
    cycles: readonly PlannerCycle[],
    loop: number,
    context: RunContext,
  ): Promise<JudgeVerdict> {
    const verdict = await this.#judge.object(
      judgeVerdictSchema,
      reviewTurns(goal, cycles, 'Judge these results against the goal.'),
      { context, purpose: 'judge' },
    );
    context.emit({ type: 'planner.judge', agent: this.#judge.name, loop, ...verdict });
    return verdict;
  }
}

// After a budget stop: the finished tasks' outputs, as the answer the run can still give.
function answerFromTasks(cycles: readonly PlannerCycle[]): string | undefined {
  return finishedOutputs(cycles.flatMap((c) => c.tasks.map((t) => ({ ...t, by: t.worker ?? 'worker' }))));
}
