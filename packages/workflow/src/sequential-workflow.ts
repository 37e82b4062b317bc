import {
  BaseTopology,
  ConfigError,
  type GuardrailOptions,
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

/** Options of a SequentialWorkflow: the members, in the order they work. */
export interface SequentialWorkflowOptions<TOutput = string> extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'sequential-workflow'`). */
  name?: string;
  /** Agents or topologies; each works on the task after the one before it. */
  agents: Member[];
  /**
   * The answer as a validated object of this `z.object(...)` (`result.finalOutput`), given by the
   * last member, which must then be an Agent.
   */
  outputType?: z.ZodType<TOutput>;
}

/** What a sequential run returns: the last member's output, and every member's in order. */
export interface SequentialWorkflowResult<TOutput = string> extends TopologyResult {
  /** The last member's answer: the validated object with `outputType`, else its text (absent when the budget stopped the run first). */
  finalOutput?: TOutput;
  /** Each member that answered, in order (fewer than the members when the budget stopped the run). */
  steps: MemberOutput[];
}

/**
 * A pipeline: the first member gets the task; each next member gets the task and the previous
 * member's output as that member's turn. The last member's output is the answer.
 */
export class SequentialWorkflow<TOutput = string> extends BaseTopology<SequentialWorkflowResult<TOutput>> {
  readonly type = 'SequentialWorkflow';
  readonly name: string;
  readonly #agents: readonly Member[];
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: SequentialWorkflowOptions<TOutput>) {
    super();
    this.#agents = validateMembers(options?.agents, 'SequentialWorkflow');
    this.name = nameOption('SequentialWorkflow', options.name, 'sequential-workflow');
    this.#outputType = validateOutputType(options.outputType, 'SequentialWorkflow');
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
        this.#agents.length,
        async (i, before) => {
          const member = this.#agents[i]!;
          const last = i === this.#agents.length - 1;
          const input = handOn(task, before.slice(-1));
          const step = await runStep(member, input, context, last ? this.#outputType : undefined);
          if (last) finalOutput = step.finalOutput as TOutput;
          return { value: { agent: member.name, output: step.output }, interruption: step.interruption };
        },
      );
      const typed = finalOutput === undefined ? {} : { finalOutput };
      return { output: steps.at(-1)!.output, steps, ...typed, ...interruptionFields(interruption) };
    });
  }
}
