import {
  BaseTopology,
  booleanOption,
  integerOption,
  interruptionFields,
  type Member,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { handOn, type MemberOutput, runInTurn, runStep } from './member-run.js';
import { checkTask, nameOption } from './options.js';
import { type ContextMode, contextOption, teamNote, withTeamNote } from './shared-context.js';

/** Options of a SequentialWorkflow: the members, in the order they work. */
export interface SequentialWorkflowOptions {
  /** Its name in traces and as another topology's member (default `'sequential-workflow'`). */
  name?: string;
  /** Agents or topologies; each works on the task after the one before it. */
  agents: Member[];
  /** What each member reads: `'full'` (default, as swarms) the task and every earlier turn; `'previous'` the last one only. */
  context?: ContextMode;
  /** How many times the whole pipeline runs, each pass reading the passes before it (default 1). */
  maxLoops?: number;
  /** Tell each member its place: who works before and after it (default false, as swarms). */
  teamAwareness?: boolean;
}

/** What a sequential run returns: the last member's output, and every member's in order. */
export interface SequentialWorkflowResult extends TopologyResult {
  /** Each member that answered, in order, every loop (fewer when the budget stopped the run). */
  steps: MemberOutput[];
}

/**
 * A pipeline: the first member gets the task; each next member gets the task and the earlier
 * members' outputs as those members' turns (all of them, or with `context: 'previous'` the last).
 * The last member's output is the answer.
 */
export class SequentialWorkflow extends BaseTopology<SequentialWorkflowResult> {
  readonly type = 'SequentialWorkflow';
  readonly name: string;
  readonly context: ContextMode;
  readonly maxLoops: number;
  readonly teamAwareness: boolean;
  readonly #agents: readonly Member[];

  constructor(options: SequentialWorkflowOptions) {
    super();
    const owner = 'SequentialWorkflow';
    this.#agents = validateMembers(options?.agents, owner);
    this.name = nameOption(owner, options.name, 'sequential-workflow');
    this.context = contextOption(owner, options.context);
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 1, 1);
    this.teamAwareness = booleanOption(owner, 'teamAwareness', options.teamAwareness, false);
  }

  /** Runs the members one after another on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<SequentialWorkflowResult> {
    checkTask('SequentialWorkflow', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents }, options, async (context) => {
      // The budget stops the pipeline; the last member that answered gives the answer.
      const { done: steps, interruption } = await runInTurn<MemberOutput>(
        this.#agents.length * this.maxLoops,
        async (i, before) => {
          const member = this.#agents[i % this.#agents.length]!;
          const seen = this.context === 'full' ? before : before.slice(-1);
          const input = withTeamNote(handOn(task, seen, member.name), this.#note(i % this.#agents.length));
          const step = await runStep(member, input, context);
          return { value: { agent: member.name, output: step.output }, interruption: step.interruption };
        },
      );
      return { output: steps.at(-1)!.output, steps, ...interruptionFields(interruption) };
    });
  }

  #note(index: number): string | undefined {
    if (!this.teamAwareness) return undefined;
    const names = this.#agents.map((a) => a.name);
    return teamNote({
      name: names[index]!,
      team: `sequential workflow ${names.join(' -> ')}`,
      step: index + 1,
      steps: names.length,
      before: names.slice(0, index),
      after: names.slice(index + 1),
    });
  }
}
