import {
  BaseTopology,
  booleanOption,
  ConfigError,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  isTopology,
  type Member,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import type { z } from 'zod';
import { handOn, type MemberOutput, runInTurn, runStep } from './member-run.js';
import { checkTask, nameOption } from './options.js';
import { type ContextMode, contextOption, teamNote, withTeamNote } from './shared-context.js';

/** Options of a SequentialWorkflow: the members, in the order they work. */
export interface SequentialWorkflowOptions<TOutput = string> extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'sequential-workflow'`). */
  name?: string;
  /** Agents or topologies; each works on the task after the one before it. */
  agents: readonly Member[];
  /** What each member reads: `'full'` (default, as swarms) the task and every earlier turn; `'previous'` the last one only. */
  context?: ContextMode;
  /** How many times the whole pipeline runs, each pass reading the passes before it (default 1). */
  maxLoops?: number;
  /** Tell each member its place: who works before and after it (default false, as swarms). */
  teamAwareness?: boolean;
  /**
   * The answer as a validated object of this `z.object(...)` (`result.finalOutput`), given by the
   * last member (of the last loop), which must then be an Agent.
   */
  outputType?: z.ZodType<TOutput>;
}

/** What a sequential run returns: the last member's output, and every member's in order. */
export interface SequentialWorkflowResult<TOutput = string> extends TopologyResult {
  /** The last member's answer: the validated object with `outputType`, else its text (absent when the budget stopped the run first). */
  finalOutput?: TOutput;
  /** Each member that answered, in order, every loop (fewer when the budget stopped the run). */
  steps: MemberOutput[];
}

/**
 * A pipeline: the first member gets the task; each next member gets the task and the earlier
 * members' outputs as those members' turns (all of them, or with `context: 'previous'` the last).
 * The last member's output is the answer.
 */
export class SequentialWorkflow<TOutput = string> extends BaseTopology<SequentialWorkflowResult<TOutput>> {
  readonly type = 'SequentialWorkflow';
  readonly name: string;
  readonly context: ContextMode;
  readonly maxLoops: number;
  readonly teamAwareness: boolean;
  readonly #agents: readonly Member[];
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: SequentialWorkflowOptions<TOutput>) {
    super();
    const owner = 'SequentialWorkflow';
    this.#agents = validateMembers(options?.agents, owner);
    this.name = nameOption(owner, options.name, 'sequential-workflow');
    this.context = contextOption(owner, options.context);
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 1, 1);
    this.teamAwareness = booleanOption(owner, 'teamAwareness', options.teamAwareness, false);
    this.#outputType = validateOutputType(options.outputType, owner);
    const last = this.#agents.at(-1)!;
    if (this.#outputType && isTopology(last)) {
      throw new ConfigError(
        `SequentialWorkflow: outputType types the last member's answer, but "${last.name}" is a ${last.type}: make the last member an Agent, or give that topology its own outputType.`,
      );
    }
    this.withGuardrails(options);
  }

  /** Runs the members one after another on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<SequentialWorkflowResult<TOutput>> {
    checkTask('SequentialWorkflow', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents }, options, async (context) => {
      let finalOutput: TOutput | undefined;
      // The budget stops the pipeline; the last member that answered gives the answer.
      const { done: steps, interruption } = await runInTurn<MemberOutput>(
        this.#agents.length * this.maxLoops,
        async (i, before) => {
          const member = this.#agents[i % this.#agents.length]!;
          const last = i === this.#agents.length * this.maxLoops - 1;
          const seen = this.context === 'full' ? before : before.slice(-1);
          const input = withTeamNote(handOn(task, seen, member.name), this.#note(i % this.#agents.length));
          const step = await runStep(member, input, context, last ? this.#outputType : undefined);
          if (last) finalOutput = step.finalOutput as TOutput;
          return { value: { agent: member.name, output: step.output }, interruption: step.interruption };
        },
      );
      const typed = finalOutput === undefined ? {} : { finalOutput };
      return { output: steps.at(-1)!.output, steps, ...typed, ...interruptionFields(interruption) };
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
