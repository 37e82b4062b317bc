import {
  BaseTopology,
  booleanOption,
  budgetStop,
  Conversation,
  concurrencyOption,
  type FormatOrSchema,
  formatOrSchema,
  type GuardrailOptions,
  integerOption,
  isRunStop,
  type Member,
  type OutputType,
  outputTypes,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import type { z } from 'zod';
import { withRetries } from './attempts.js';
import { runByDependencies } from './dependency-scheduler.js';
import { answerSchema, Head, type HeadLike } from './head.js';
import {
  briefing,
  feedbackTurns,
  finalTurns,
  type HierarchyLoop,
  nextLoopTurns,
  type OrderRecord,
  workerTurns,
} from './hierarchy-turns.js';
import { type Attempted, finishedOutputs, workOutcome } from './order-result.js';
import { type SwarmSpec, swarmSpecSchema } from './swarm-spec.js';

type SpecSchema = ReturnType<typeof swarmSpecSchema>;
/** Options of a HierarchicalSwarm. */
export interface HierarchicalSwarmOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /**
   * Plans, gives orders and writes the final answer: an Agent (run as it is, nested in the run:
   * its tools, guardrails and settings hold; its own `outputType` types the final answer), or a model.
   */
  director: HeadLike;
  /** The workers the director gives orders to, by name: Agents or whole topologies. */
  agents: readonly Member[];
  /** Rounds of plan, orders and results (default 1). */
  maxLoops?: number;
  /** Run independent orders at the same time (default true); false runs them one by one, in order. */
  parallel?: boolean;
  /** Orders in flight at once (default: every ready order). */
  maxWorkers?: number;
  /** Extra attempts for a failing order before it is recorded as failed (default 1). */
  maxAgentRetries?: number;
  /** Between loops, the director comments on the workers' outputs, and sees its comments next loop (default false). */
  directorFeedback?: boolean;
  /** Most orders in one spec (default 10): a bound on one loop's cost. */
  maxOrders?: number;
  /**
   * Invalid specs (unknown agent, unknown dependency, cycle) and typed answers sent back for repair
   * (default 2, or a director Agent's own `maxOutputRepairs`; given, it replaces that).
   */
  maxRepairs?: number;
  /**
   * What `output` holds: the final answer (`'final'`, default) or the whole run's conversation
   * formatted; or a `z.object(...)`: the director's final answer as a validated object in `finalOutput`.
   * A director Agent with its own outputType types the final answer the same way; giving both, and
   * different, is a ConfigError.
   */
  outputType?: OutputType | z.ZodType<TOutput>;
}

/** The result of a HierarchicalSwarm run: the answer and every loop's plan and orders. */
export interface HierarchicalSwarmResult<TOutput = string> extends TopologyResult {
  /** With a schema `outputType`: the director's final answer as that object (absent after a budget stop). */
  finalOutput?: TOutput;
  loops: HierarchyLoop[];
}

const DIRECTOR_INSTRUCTIONS =
  'You are the director of a team of agents. You split a task into precise orders for the right agents, read their results, and write the final answer.';

/**
 * Seed 001's director pattern: a director writes a structured plan of orders (`SwarmSpec`), workers
 * carry them out as their dependencies allow, the director may go another round on the results,
 * and writes the final answer.
 */
export class HierarchicalSwarm<TOutput = string> extends BaseTopology<HierarchicalSwarmResult<TOutput>> {
  readonly type = 'HierarchicalSwarm';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly maxLoops: number;
  readonly parallel: boolean;
  readonly maxWorkers: number;
  readonly maxAgentRetries: number;
  readonly directorFeedback: boolean;
  readonly maxOrders: number;
  readonly maxRepairs: number;
  /** The conversation format of `output` (`'final'` when `outputType` is a schema). */
  readonly outputType: OutputType;
  readonly #schema: z.ZodObject | undefined;
  readonly #director: Head;
  readonly #byName: Map<string, Member>;
  // The director's schemas (first loop, later loops), made once: core converts a schema to JSON
  // Schema once per schema object, so a schema made per run would be converted on every call.
  #specSchemas: { first: SpecSchema; later: SpecSchema } | undefined;

  constructor(options: HierarchicalSwarmOptions<TOutput>) {
    super();
    const owner = 'HierarchicalSwarm';
    this.name = options.name ?? owner;
    this.agents = validateMembers(options.agents, owner, { option: 'agents', min: 1 });
    this.maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.#director = new Head(options.director, {
      owner,
      option: 'director',
      name: 'director',
      instructions: DIRECTOR_INSTRUCTIONS,
      answers: true,
      ...(options.maxRepairs !== undefined && { maxRepairs: this.maxRepairs }),
    });
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 1, 1);
    this.parallel = booleanOption(owner, 'parallel', options.parallel, true);
    this.maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.maxAgentRetries = integerOption(owner, 'maxAgentRetries', options.maxAgentRetries, 1, 0);
    this.directorFeedback = booleanOption(owner, 'directorFeedback', options.directorFeedback, false);
    this.maxOrders = integerOption(owner, 'maxOrders', options.maxOrders, 10, 1);
    const output: FormatOrSchema<OutputType> = formatOrSchema(
      owner,
      options.outputType,
      outputTypes,
      'final',
    );
    this.outputType = output.format;
    this.#schema = answerSchema(owner, 'director', output.schema, this.#director);
    this.#byName = new Map(this.agents.map((member) => [member.name, member]));
    this.withGuardrails(options);
  }

  /** Runs the loops: plan, carry out the orders, optionally go again, then the director answers. */
  run(task: string, options: RunOptions = {}): Promise<HierarchicalSwarmResult<TOutput>> {
    return runTopology<HierarchicalSwarmResult<TOutput>>(this, { task }, options, async (context) => {
      const loops: HierarchyLoop[] = [];
      try {
        for (let loop = 1; loop <= this.maxLoops; loop++) {
          const spec = await this.#plan(task, loops.at(-1), loop, context);
          const record: HierarchyLoop = { plan: spec.plan, done: spec.done, orders: [] };
          loops.push(record);
          await this.#carryOut(task, spec, record, loop, context);
          if (spec.done || loop === this.maxLoops) break;
          if (this.directorFeedback) record.feedback = await this.#feedback(record, loop, context);
        }
        const answer = await this.#director.final(finalTurns(task, loops), {
          context,
          purpose: 'final',
          outputType: this.#schema,
        });
        return {
          output: this.#format(task, loops, answer.output),
          ...(answer.finalOutput !== undefined && { finalOutput: answer.finalOutput as TOutput }),
          loops,
        };
      } catch (error) {
        const reason = budgetStop(error);
        const answer = reason && answerFromResults(loops);
        if (!reason || answer === undefined) throw error;
        return {
          output: this.#format(task, loops, answer),
          loops,
          interrupted: true,
          interruptionReason: reason,
        };
      }
    });
  }

  // The director's SwarmSpec for this loop; unknown agents, unknown ids and cycles are repaired.
  async #plan(
    task: string,
    last: HierarchyLoop | undefined,
    loop: number,
    context: RunContext,
  ): Promise<SwarmSpec> {
    const messages = last
      ? nextLoopTurns(task, this.agents, last, loop, this.maxLoops)
      : [briefing(task, this.agents)];
    const names = [...this.#byName.keys()];
    this.#specSchemas ??= {
      first: swarmSpecSchema(names, this.maxOrders, { firstLoop: true }),
      later: swarmSpecSchema(names, this.maxOrders, { firstLoop: false }),
    };
    const schema = last ? this.#specSchemas.later : this.#specSchemas.first;
    const spec = await this.#director.object(schema, messages, { context, purpose: 'director' });
    context.emit({
      type: 'hierarchy.plan',
      agent: this.#director.name,
      loop,
      plan: spec.plan,
      orders: spec.orders,
      done: spec.done,
    });
    return spec;
  }

  // Runs the spec's orders as their dependencies allow; a budget stop or abort ends the run after
  // the orders in flight have settled, with every order's outcome recorded.
  async #carryOut(
    task: string,
    spec: SwarmSpec,
    record: HierarchyLoop,
    loop: number,
    context: RunContext,
  ): Promise<void> {
    const finished = new Map<string, OrderRecord>();
    const orders = spec.orders.map((order) => ({ ...order, dependsOn: order.dependsOn ?? [] }));
    const { outcomes, stoppedBy } = await runByDependencies(
      orders,
      async (order): Promise<Attempted> => {
        const dependencies = order.dependsOn.map((id) => finished.get(id)!);
        const input = workerTurns(task, spec.plan, order, dependencies, this.#director.name);
        const member = this.#byName.get(order.agentName)!;
        const { value, attempts } = await withRetries(this.maxAgentRetries, async (attempt) => {
          context.emit({
            type: 'hierarchy.order.start',
            agent: order.agentName,
            loop,
            id: order.id,
            attempt,
          });
          return (await runMember(member, input, context)).output;
        });
        finished.set(order.id, { ...order, status: 'done', output: value, attempts });
        return { output: value, attempts };
      },
      {
        concurrency: this.parallel ? this.maxWorkers : 1,
        isFatal: isRunStop,
        onOutcome: (outcome, i) => {
          const { id, agentName } = orders[i]!;
          const { status, attempts, error } = workOutcome(outcome, 'order');
          context.emit({
            type: 'hierarchy.order.end',
            agent: agentName,
            loop,
            id,
            status,
            attempts,
            ...(error !== undefined && { error }),
          });
        },
      },
    );
    record.orders = orders.map((order, i) => ({ ...order, ...workOutcome(outcomes[i]!, 'order') }));
    if (stoppedBy !== undefined) throw stoppedBy;
  }

  async #feedback(record: HierarchyLoop, loop: number, context: RunContext): Promise<string | undefined> {
    if (!record.orders.some((order) => order.status === 'done')) return undefined;
    const feedback = await this.#director.text(feedbackTurns(record.orders), {
      context,
      purpose: 'feedback',
    });
    context.emit({ type: 'hierarchy.feedback', agent: this.#director.name, loop, feedback });
    return feedback;
  }

  #format(task: string, loops: readonly HierarchyLoop[], answer: string): string {
    if (this.outputType === 'final') return answer;
    const conversation = new Conversation();
    conversation.add('user', task);
    for (const loop of loops) {
      conversation.add('assistant', `Plan: ${loop.plan}`, this.#director.name);
      for (const order of loop.orders) {
        conversation.add('assistant', order.output ?? `FAILED: ${order.error}`, order.agentName);
      }
      if (loop.feedback) conversation.add('assistant', `Feedback: ${loop.feedback}`, this.#director.name);
    }
    conversation.add('assistant', answer, this.#director.name);
    const formatted = conversation.format(this.outputType);
    return Array.isArray(formatted) ? formatted.join('\n') : formatted;
  }
}

// After a budget stop: the finished orders' outputs, as the answer the run can still give.
function answerFromResults(loops: readonly HierarchyLoop[]): string | undefined {
  return finishedOutputs(loops.flatMap((loop) => loop.orders.map((o) => ({ ...o, by: o.agentName }))));
}
