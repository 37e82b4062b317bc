import {
  BaseTopology,
  type BudgetReason,
  budgetStop,
  ConfigError,
  concurrencyOption,
  type GuardrailOptions,
  interruptionFields,
  isMember,
  type Member,
  type Message,
  memberTurn,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import {
  batchAnswers,
  joinOutputs,
  type MemberOutput,
  type MemberRecord,
  runSettled,
  runStep,
  taskTurn,
} from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** Options of a ConcurrentWorkflow. */
export interface ConcurrentWorkflowOptions extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'concurrent-workflow'`). */
  name?: string;
  /** Agents or topologies; all work on the task at once. */
  agents: readonly Member[];
  /** Answers the task from the members' outputs; without one, the answer is those outputs as named blocks. */
  aggregator?: Member;
  /**
   * `'store'` (default): a member that fails is recorded as failed and the others' work is kept.
   * `'raise'`: the run rejects with the first failure (in input order) once all members have settled.
   */
  onError?: 'store' | 'raise';
  /** How many members run at once (default: all). */
  maxWorkers?: number;
}

/** What a concurrent run returns: the answer, and each member's outcome in input order. */
export interface ConcurrentWorkflowResult extends TopologyResult {
  /** One record per member, in the order of `agents`, whatever order they finished in. */
  results: MemberRecord[];
}

/** The closing turn of the aggregator's input. */
export const aggregatorPrompt = "Answer the task from the members' answers above.";

/**
 * All members work on the task at once; results are kept in input order. An optional aggregator
 * answers the task from the members' outputs.
 */
export class ConcurrentWorkflow extends BaseTopology<ConcurrentWorkflowResult> {
  readonly type = 'ConcurrentWorkflow';
  readonly name: string;
  readonly #agents: readonly Member[];
  readonly #aggregator: Member | undefined;
  readonly #onError: 'store' | 'raise';
  readonly #maxWorkers: number;

  constructor(options: ConcurrentWorkflowOptions) {
    super();
    this.#agents = validateMembers(options?.agents, 'ConcurrentWorkflow');
    this.name = nameOption('ConcurrentWorkflow', options.name, 'concurrent-workflow');
    if (options.aggregator !== undefined && !isMember(options.aggregator)) {
      throw new ConfigError('ConcurrentWorkflow: aggregator must be an Agent or a Topology.');
    }
    this.#aggregator = options.aggregator;
    const onError = options.onError ?? 'store';
    if (onError !== 'store' && onError !== 'raise') {
      throw new ConfigError(
        `ConcurrentWorkflow: onError must be 'store' or 'raise' (got ${String(onError)}).`,
      );
    }
    this.#onError = onError;
    this.#maxWorkers = concurrencyOption('ConcurrentWorkflow', 'maxWorkers', options.maxWorkers);
    this.withGuardrails(options);
  }

  /** Runs every member on `task` at once, then the aggregator (if any) on their outputs. */
  async run(task: string, options: RunOptions = {}): Promise<ConcurrentWorkflowResult> {
    checkTask('ConcurrentWorkflow', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents }, options, async (context) => {
      const jobs = this.#agents.map((member) => ({ agent: member.name, member, input: task }));
      const batch = await runSettled(jobs, context, this.#maxWorkers);
      const failed = batch.records.findIndex((r) => r.status === 'failed');
      if (this.#onError === 'raise' && failed >= 0) throw batch.errors[failed];
      const answers = batchAnswers(batch);
      let interruption: BudgetReason | undefined = batch.interruption;
      let output = joinOutputs(answers);
      if (this.#aggregator && !interruption) {
        try {
          const step = await runStep(this.#aggregator, aggregatorInput(task, answers), context);
          output = step.output;
          interruption = step.interruption;
        } catch (error) {
          // Stopped by the budget, the members' answers are the answer.
          interruption = budgetStop(error);
          if (!interruption) throw error;
        }
      }
      return { output, results: batch.records, ...interruptionFields(interruption) };
    });
  }
}

/** The aggregator's input: the task, each member's answer as that member's turn, and the request to answer. */
export function aggregatorInput(task: string, answers: readonly MemberOutput[]): Message[] {
  return [
    taskTurn(task),
    ...answers.map((a) => memberTurn(a.agent, a.output)),
    { role: 'user', content: aggregatorPrompt },
  ];
}
