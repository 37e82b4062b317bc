import {
  Agent,
  type AgentResult,
  ConfigError,
  errorMessage,
  isMember,
  isTopology,
  type Message,
  type ModelLike,
  nonEmptyAnswer,
  type RunContext,
  resolveModel,
} from '@swarm/core';
import type { z } from 'zod';

// An Agent's default `maxOutputRepairs`, which a head built on a model has too.
const defaultRepairs = 2;

/** Who leads: an Agent (run as it is: its tools, guardrails, settings and outputType hold), or just a model. */
export type HeadLike = Agent<unknown> | ModelLike;

/** How a topology makes one of its heads. */
export interface HeadOptions {
  /** The topology, for error messages (`HierarchicalSwarm`). */
  owner: string;
  /** The option the head was given in (`director`), for error messages. */
  option: string;
  /** The name of the Agent built on a model (an Agent head keeps its own). */
  name: string;
  /** The instructions of a head with none of its own. */
  instructions: string;
  /** The topology's `maxRepairs` when given: replaces the head Agent's `maxOutputRepairs`. */
  maxRepairs?: number;
  /**
   * Whether this head writes the topology's answer. A head Agent with its own `outputType` that
   * only makes structured decisions (which are typed by the topology's schemas) is a ConfigError:
   * its outputType would type nothing.
   */
  answers: boolean;
}

/**
 * The one who plans, judges or synthesizes (a director, planner, judge): an Agent run as a nested
 * part of the topology's run (`agent.run` with the run's context), so its tools, guardrails,
 * temperature and outputType hold and its calls count in the run's totals. A structured decision
 * is that run's typed output (the decision's schema as the run's `outputType`); every call is
 * tagged with a `purpose` so traces and scripted tests can tell the head's runs apart.
 */
export class Head {
  readonly name: string;
  /** The head Agent's own outputType: what its answer is typed as when the topology gives none. */
  readonly outputType: z.ZodObject | undefined;
  readonly #agent: Agent<unknown>;
  // The same agent without its own outputType, for prose that is not the answer (feedback, a
  // synthesis a later loop improves on); made when first needed.
  #prose: Agent<unknown> | undefined;

  constructor(head: HeadLike, options: HeadOptions) {
    const { owner, option } = options;
    if (isTopology(head) || head === undefined || head === null) {
      throw new ConfigError(`${owner}: ${option} must be an Agent or a model (a Model or a model string).`);
    }
    const repairs = options.maxRepairs !== undefined && { maxOutputRepairs: options.maxRepairs };
    if (isMember(head)) {
      if (head.outputType !== undefined && !options.answers) {
        throw new ConfigError(
          `${owner}: the ${option} Agent "${head.name}" has its own outputType, but the ${option} only makes the topology's structured decisions and never writes its answer: give the outputType to the topology, or the Agent to the role that answers.`,
        );
      }
      const changes = {
        ...(head.instructions === undefined && { instructions: options.instructions }),
        ...repairs,
      };
      this.#agent = Object.keys(changes).length === 0 ? head : head.clone(changes);
    } else {
      try {
        // Its only tool is the final one of a structured decision: one turn per attempt at it.
        this.#agent = new Agent({
          name: options.name,
          instructions: options.instructions,
          model: resolveModel(head),
          maxTurns: (options.maxRepairs ?? defaultRepairs) + 1,
          ...repairs,
        });
      } catch (error) {
        throw new ConfigError(`${owner}: ${option}: ${errorMessage(error)}`, { cause: error });
      }
    }
    this.name = this.#agent.name;
    this.outputType = this.#agent.outputType;
  }

  /**
   * A validated structured decision: the head's run with `schema` as its outputType (its own
   * outputType, if any, does not hold for this run), repaired up to its output repairs.
   */
  async object<S extends z.ZodObject>(
    schema: S,
    messages: Message[],
    options: { context: RunContext; purpose: string },
  ): Promise<z.output<S>> {
    const result = await this.#run(this.#agent, messages, { ...options, outputType: schema });
    return result.finalOutput as z.output<S>;
  }

  /**
   * One prose turn that is not a structured decision (feedback, a synthesis a later loop improves
   * on): the head's run without its own outputType.
   */
  async text(messages: Message[], options: { context: RunContext; purpose: string }): Promise<string> {
    this.#prose ??=
      this.outputType === undefined ? this.#agent : this.#agent.clone({ outputType: undefined });
    return (await this.#run(this.#prose, messages, options)).output;
  }

  /** A prose answer (`text`), asked for once more when it comes back empty, then `EmptyAnswerError`. */
  answer(messages: Message[], options: { context: RunContext; purpose: string }): Promise<string> {
    return nonEmptyAnswer(this.name, options.context, () => this.text(messages, options));
  }

  /**
   * The run's final answer: with `outputType` (the topology's `answerSchema`), the head's run typed
   * by it, its validated object as `finalOutput` and the object's JSON as the text; else `answer`.
   */
  async final(
    messages: Message[],
    options: { context: RunContext; purpose: string; outputType: z.ZodObject | undefined },
  ): Promise<{ output: string; finalOutput?: unknown }> {
    const { outputType, ...rest } = options;
    if (outputType === undefined) return { output: await this.answer(messages, rest) };
    const result = await this.#run(this.#agent, messages, options);
    return { output: result.output, finalOutput: result.finalOutput };
  }

  // The head's run, nested in the topology's: the same context, as a member Agent runs.
  #run(
    agent: Agent<unknown>,
    messages: Message[],
    options: { context: RunContext; purpose: string; outputType?: z.ZodObject | undefined },
  ): Promise<AgentResult<unknown>> {
    const { context, purpose, outputType } = options;
    return agent.run(messages, { context, purpose, ...(outputType !== undefined && { outputType }) });
  }
}

/**
 * The schema of a topology's answer: its own `outputType`, else that of the head who writes the
 * answer. Both given and different is a ConfigError: the answer can be typed only once.
 */
export function answerSchema(
  owner: string,
  option: string,
  topology: z.ZodObject | undefined,
  head: Head,
): z.ZodObject | undefined {
  if (topology !== undefined && head.outputType !== undefined && head.outputType !== topology) {
    throw new ConfigError(
      `${owner}: both outputType and the ${option} Agent "${head.name}"'s own outputType type the answer: give one of them.`,
    );
  }
  return topology ?? head.outputType;
}

/**
 * The most model calls one run of a head may make, for a descriptor's worst case: a typed run (a
 * structured decision, a typed answer) and a prose run. A head Agent with tools may use all its
 * turns on either; without tools, a typed run takes one turn per attempt at the object.
 */
export function headCalls(head: HeadLike, maxRepairs: number | undefined): { typed: number; prose: number } {
  if (!isMember(head) || isTopology(head)) return { typed: (maxRepairs ?? defaultRepairs) + 1, prose: 1 };
  if (head.tools.length > 0) return { typed: head.maxTurns, prose: head.maxTurns };
  return { typed: Math.min(head.maxTurns, (maxRepairs ?? head.maxOutputRepairs) + 1), prose: 1 };
}
