import {
  type Agent,
  ConfigError,
  errorMessage,
  generateObject,
  isMember,
  isTopology,
  type Message,
  type Model,
  type ModelLike,
  nonEmptyAnswer,
  outputToolName,
  type RunContext,
  resolveModel,
} from '@swarm/core';
import type { z } from 'zod';

/** Who leads: an Agent (its model, instructions and settings are used), or just a model. */
export type HeadLike = Agent<unknown> | ModelLike;

/**
 * The one who plans, judges or synthesizes (a director, planner, judge): its structured decisions
 * go through `generateObject`, its prose through one model call, both inside the run's context
 * and tagged with a `purpose` so traces and scripted tests can tell the calls apart.
 */
export class Head {
  readonly name: string;
  readonly model: Model;
  readonly instructions: string;
  readonly #agent: Agent<unknown> | undefined;

  constructor(
    head: HeadLike,
    options: { owner: string; option: string; name: string; instructions: string },
  ) {
    if (isTopology(head) || head === undefined || head === null) {
      throw new ConfigError(
        `${options.owner}: ${options.option} must be an Agent or a model (a Model or a model string).`,
      );
    }
    if (isMember(head)) {
      this.#agent = head;
      this.name = head.name;
      this.model = head.model;
      this.instructions = head.instructions ?? options.instructions;
    } else {
      try {
        this.model = resolveModel(head);
      } catch (error) {
        throw new ConfigError(`${options.owner}: ${options.option}: ${errorMessage(error)}`, {
          cause: error,
        });
      }
      this.name = options.name;
      this.instructions = options.instructions;
    }
  }

  /** A validated structured decision, repaired up to `maxRepairs` times when it fails the schema. */
  async object<S extends z.ZodObject>(
    schema: S,
    messages: Message[],
    options: { context: RunContext; name: string; purpose: string; maxRepairs?: number },
  ): Promise<z.output<S>> {
    const { object } = await generateObject(this.model, {
      schema,
      messages,
      system: this.instructions,
      name: options.name,
      purpose: options.purpose,
      agent: this.name,
      context: options.context,
      maxRepairs: options.maxRepairs,
      temperature: this.#agent?.temperature,
      maxTokens: this.#agent?.maxTokens,
    });
    return object;
  }

  /** One prose answer (no tools), as a call of the run. */
  async text(messages: Message[], options: { context: RunContext; purpose: string }): Promise<string> {
    const response = await options.context.callModel(this.model, {
      system: this.instructions,
      messages,
      temperature: this.#agent?.temperature,
      maxTokens: this.#agent?.maxTokens,
      metadata: { agent: this.name, purpose: options.purpose },
    });
    return response.text;
  }

  /**
   * The run's final answer: with `outputType`, a validated object (one structured call, repaired
   * like generateObject's) and its JSON as the text; else prose, as `answer` writes it.
   */
  async final(
    messages: Message[],
    options: { context: RunContext; purpose: string; outputType: z.ZodObject | undefined },
  ): Promise<{ output: string; finalOutput?: unknown }> {
    const { outputType, ...rest } = options;
    if (outputType === undefined) return { output: await this.answer(messages, rest) };
    const finalOutput = await this.object(outputType, messages, { ...rest, name: outputToolName });
    return { output: JSON.stringify(finalOutput), finalOutput };
  }

  /** The run's final prose answer: asked for once more when it comes back empty, then `EmptyAnswerError`. */
  answer(messages: Message[], options: { context: RunContext; purpose: string }): Promise<string> {
    return nonEmptyAnswer(this.name, options.context, () => this.text(messages, options));
  }
}
