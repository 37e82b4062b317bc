import {
  BaseTopology,
  ConfigError,
  concurrencyOption,
  type GuardrailOptions,
  interruptionFields,
  type Member,
  type RunOptions,
  type RunStream,
  runStream,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { batchAnswers, joinOutputs, type MemberRecord, runSettled } from './member-run.js';
import { nameOption } from './options.js';

/** Options of a BatchedGridWorkflow. */
export interface BatchedGridWorkflowOptions extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'batched-grid-workflow'`). */
  name?: string;
  /** Agents or topologies; member i works on task i. */
  agents: readonly Member[];
  /** How many members run at once (default: all). */
  maxWorkers?: number;
}

/** One cell of the grid: the member, its task, and what became of it. */
export type GridRecord = MemberRecord & { task: string };

/** What a grid run returns: the answers as named blocks, and each member's outcome in input order. */
export interface BatchedGridWorkflowResult extends TopologyResult {
  /** One record per member, in the order of `agents`. */
  results: GridRecord[];
}

/**
 * Member i works on task i, all at once; results are settled, in input order, so one failure loses
 * no other member's answer. Given one task (as every Topology can be), every member works on it.
 */
export class BatchedGridWorkflow extends BaseTopology<BatchedGridWorkflowResult> {
  readonly type = 'BatchedGridWorkflow';
  readonly name: string;
  readonly #agents: readonly Member[];
  readonly #maxWorkers: number;

  constructor(options: BatchedGridWorkflowOptions) {
    super();
    this.#agents = validateMembers(options?.agents, 'BatchedGridWorkflow');
    this.name = nameOption('BatchedGridWorkflow', options.name, 'batched-grid-workflow');
    this.#maxWorkers = concurrencyOption('BatchedGridWorkflow', 'maxWorkers', options.maxWorkers);
    this.withGuardrails(options);
  }

  /**
   * Runs member i on `tasks[i]` (exactly one task per member), or every member on `tasks` when it is
   * one string.
   */
  async run(tasks: string | readonly string[], options: RunOptions = {}): Promise<BatchedGridWorkflowResult> {
    const grid = this.#grid(tasks);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { tasks: grid, agents }, options, async (context) => {
      const jobs = this.#agents.map((member, i) => ({ agent: member.name, member, input: grid[i]! }));
      const batch = await runSettled(jobs, context, this.#maxWorkers);
      const answers = batchAnswers(batch);
      const results = batch.records.map((record, i) => ({ ...record, task: grid[i]! }));
      return { output: joinOutputs(answers), results, ...interruptionFields(batch.interruption) };
    });
  }

  /** Streams the run's events; `result` resolves at the end. Takes tasks like `run`. */
  override stream(
    tasks: string | readonly string[],
    options?: RunOptions,
  ): RunStream<BatchedGridWorkflowResult> {
    return runStream((o) => this.run(tasks, o), options);
  }

  #grid(tasks: string | readonly string[]): string[] {
    if (typeof tasks === 'string') return this.#agents.map(() => tasks);
    if (!Array.isArray(tasks) || tasks.some((t) => typeof t !== 'string')) {
      throw new ConfigError('BatchedGridWorkflow run: tasks must be a string or an array of strings.');
    }
    if (tasks.length !== this.#agents.length) {
      throw new ConfigError(
        `BatchedGridWorkflow run: got ${tasks.length} task(s) for ${this.#agents.length} agent(s); give exactly one task per agent (agent i works on task i).`,
      );
    }
    return [...tasks];
  }
}
