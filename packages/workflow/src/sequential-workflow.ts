import {
  BaseTopology,
  interruptionFields,
  type Member,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { handOn, type MemberOutput, runInTurn, runStep } from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** Options of a SequentialWorkflow: the members, in the order they work. */
export interface SequentialWorkflowOptions {
  /** Its name in traces and as another topology's member (default `'sequential-workflow'`). */
  name?: string;
  /** Agents or topologies; each works on the task after the one before it. */
  agents: Member[];
}

/** What a sequential run returns: the last member's output, and every member's in order. */
export interface SequentialWorkflowResult extends TopologyResult {
  /** Each member that answered, in order (fewer than the members when the budget stopped the run). */
  steps: MemberOutput[];
}

/**
 * A pipeline: the first member gets the task; each next member gets the task and the previous
 * member's output as that member's turn. The last member's output is the answer.
 */
export class SequentialWorkflow extends BaseTopology<SequentialWorkflowResult> {
  readonly type = 'SequentialWorkflow';
  readonly name: string;
  readonly #agents: readonly Member[];

  constructor(options: SequentialWorkflowOptions) {
    super();
    this.#agents = validateMembers(options?.agents, 'SequentialWorkflow');
    this.name = nameOption('SequentialWorkflow', options.name, 'sequential-workflow');
  }

  /** Runs the members one after another on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<SequentialWorkflowResult> {
    checkTask('SequentialWorkflow', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents }, options, async (context) => {
      // The budget stops the pipeline; the last member that answered gives the answer.
      const { done: steps, interruption } = await runInTurn<MemberOutput>(
        this.#agents.length,
        async (i, before) => {
          const member = this.#agents[i]!;
          const step = await runStep(member, handOn(task, before.slice(-1)), context);
          return { value: { agent: member.name, output: step.output }, interruption: step.interruption };
        },
      );
      return { output: steps.at(-1)!.output, steps, ...interruptionFields(interruption) };
    });
  }
}
