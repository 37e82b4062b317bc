import {
  BaseTopology,
  type BudgetExceededError,
  type BudgetReason,
  ConfigError,
  Conversation,
  concurrencyOption,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  isTopology,
  type Member,
  type Message,
  mapSettled,
  memberName,
  memberTurn,
  nonEmptyAnswer,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  settledStop,
  type TopologyResult,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import type { z } from 'zod';
import {
  failure,
  type MemberAnswer,
  type MemberFailure,
  noAnswer,
  writeUnlessStopped,
} from './member-outcomes.js';
import { requireMember } from './options.js';

/** Options of a MixtureOfAgents. */
export interface MixtureOfAgentsOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /** The workers: each answers in every layer (Agents or whole Topologies). */
  agents: readonly Member[];
  /** Answers the task itself from the last layer's answers. */
  aggregator: Member;
  /** Rounds of answers (default 3): the first from the task alone, the next from the previous round's answers. */
  layers?: number;
  /** Workers running at once within a layer (default all). */
  maxWorkers?: number;
  /** The aggregator's answer as a validated object of this `z.object(...)` (`result.finalOutput`); the aggregator must be an Agent. */
  outputType?: z.ZodType<TOutput>;
}

/** One worker's answer in one layer, or why it has none. */
export type LayerAnswer = MemberAnswer | MemberFailure;

/** What a MixtureOfAgents run returns. */
export interface MixtureOfAgentsResult<TOutput = string> extends TopologyResult {
  /** The aggregator's answer: the validated object with `outputType` (absent when the budget stopped the run before it). */
  finalOutput?: TOutput;
  /** Every layer's answers, each keyed by worker in input order. */
  layers: LayerAnswer[][];
  /** The shared conversation: the task, every answer of every layer, then the aggregator's. */
  conversation: Conversation;
  interrupted: boolean;
  interruptionReason?: BudgetReason;
}

const refinePrompt =
  'Above are answers to the task from several agents, yours included if you answered before. Use them as references: keep what is right, correct what is wrong, and write one improved, complete answer to the task.';
const aggregatePrompt =
  'Above are answers to the task from several agents. Critically weigh them (some may be wrong or biased) and answer the task yourself: one accurate, complete answer, not a report about the agents.';

/**
 * Several workers answer a task independently, layer after layer, each layer seeing the previous
 * layer's answers; an aggregator then answers the task from the last layer (seed 001, section 3).
 */
export class MixtureOfAgents<TOutput = string> extends BaseTopology<MixtureOfAgentsResult<TOutput>> {
  readonly type = 'MixtureOfAgents';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly aggregator: Member;
  readonly layers: number;
  readonly maxWorkers: number;
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: MixtureOfAgentsOptions<TOutput>) {
    super();
    const owner = 'MixtureOfAgents';
    this.name = options.name ?? 'mixture-of-agents';
    this.agents = validateMembers(options.agents, owner, { option: 'agents', min: 1 });
    this.aggregator = requireMember(owner, 'aggregator', options.aggregator);
    this.layers = integerOption(owner, 'layers', options.layers, 3, 1);
    this.maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#outputType = validateOutputType(options.outputType, owner);
    if (this.#outputType && isTopology(this.aggregator)) {
      throw new ConfigError(
        `${owner}: outputType types the aggregator's answer, but "${this.aggregator.name}" is a ${this.aggregator.type}: make the aggregator an Agent.`,
      );
    }
    this.withGuardrails(options);
  }

  /** Runs the layers, then the aggregator; a failing worker is recorded and the others go on. */
  run(task: string, options: RunOptions = {}): Promise<MixtureOfAgentsResult<TOutput>> {
    return runTopology<MixtureOfAgentsResult<TOutput>>(this, { task }, options, async (context) => {
      const conversation = new Conversation();
      conversation.add('user', task);
      const layers: LayerAnswer[][] = [];
      let latest: MemberAnswer[] = [];
      let budget: BudgetExceededError | undefined;

      // 1. Layers: every worker at once; from the second layer on, each sees the latest answers.
      for (let layer = 1; layer <= this.layers && !budget; layer++) {
        const answers = await this.#layer(task, latest, context);
        budget = answers.budget;
        layers.push(answers.entries);
        const answered = answers.entries.filter((a): a is MemberAnswer => 'output' in a);
        for (const a of answered) conversation.add('assistant', a.output, a.agent);
        context.emit({
          type: 'moa.layer',
          layer,
          answered: answered.length,
          failed: answers.entries.length - answered.length,
        });
        if (answered.length > 0) latest = answered;
      }
      if (latest.length === 0) {
        if (budget) throw budget;
        throw noAnswer(`MixtureOfAgents: every worker failed (${describeLayerFailures(layers)}).`);
      }

      // 2. Aggregate: the aggregator answers the task from the last answers. After a budget stop
      // there is no call left, so the first of the latest answers stands.
      const aggregator = memberName(this.aggregator);
      let finalOutput: TOutput | undefined;
      const final = await writeUnlessStopped(budget, latest[0]!.output, () =>
        nonEmptyAnswer(aggregator, context, async () => {
          const turns = turnsFor(task, latest, aggregator, aggregatePrompt);
          const outputType = this.#outputType;
          const answered = await runMember(this.aggregator, turns, context, outputType ? { outputType } : {});
          finalOutput = answered.finalOutput as TOutput;
          return answered;
        }),
      );
      if (!final.stop) conversation.add('assistant', final.output, aggregator);
      return {
        output: final.output,
        ...(finalOutput !== undefined && { finalOutput }),
        layers,
        conversation,
        interrupted: false,
        ...interruptionFields(final.stop?.reason),
      };
    });
  }

  async #layer(task: string, previous: MemberAnswer[], context: RunContext) {
    const settled = await mapSettled(
      this.agents,
      (worker) => {
        const name = memberName(worker);
        const input = previous.length === 0 ? task : turnsFor(task, previous, name, refinePrompt);
        return runMember(worker, input, context);
      },
      { concurrency: this.maxWorkers, signal: context.signal },
    );
    const budget = settledStop(settled);
    const entries = settled.map((outcome, i): LayerAnswer => {
      const agent = memberName(this.agents[i]!);
      return outcome.status === 'fulfilled'
        ? { agent, output: outcome.value.output }
        : failure(agent, outcome.reason);
    });
    return { entries, budget };
  }
}

// The task, then the answers as typed turns: the reader's own earlier answer as its `assistant`
// turn, everyone else's as a named `user` turn; then what to do with them.
function turnsFor(task: string, answers: MemberAnswer[], reader: string, instruction: string): Message[] {
  return [
    { role: 'user', content: task },
    ...answers.map(
      (a): Message =>
        a.agent === reader ? { role: 'assistant', content: a.output } : memberTurn(a.agent, a.output),
    ),
    { role: 'user', content: instruction },
  ];
}

function describeLayerFailures(layers: LayerAnswer[][]): string {
  return (layers[0] ?? []).map((a) => ('error' in a ? `${a.agent}: ${a.error}` : a.agent)).join('; ');
}
