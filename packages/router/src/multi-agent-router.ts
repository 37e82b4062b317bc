import {
  BaseTopology,
  ConfigError,
  errorMessage,
  type GuardrailOptions,
  generateObject,
  integerOption,
  interruptionFields,
  isTopology,
  type Member,
  type Model,
  type ModelLike,
  mapSettled,
  memberName,
  nonEmptyAnswer,
  optionalIntegerOption,
  type RunOptions,
  resolveModel,
  runMember,
  runTopology,
  SwarmError,
  settledStop,
  type TopologyResult,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import { z } from 'zod';

/** Options of a MultiAgentRouter: the members it may hand tasks to, and the model that decides. */
export interface MultiAgentRouterOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  agents: readonly Member[];
  /** The model that picks members and writes their tasks. */
  model: ModelLike;
  /** Most routes one decision may give (default: one per member). */
  maxRoutes?: number;
  /** Members running at once (default: all routes). */
  maxWorkers?: number;
  /** Extra guidance for the routing model. */
  instructions?: string;
  /**
   * The routed member's answer as a validated object of this `z.object(...)` (`result.finalOutput`):
   * the run then routes to exactly one member (`maxRoutes` 1), and every member must be an Agent.
   */
  outputType?: z.ZodType<TOutput>;
}

/** One route of a decision, with what came of it. */
export interface RouteOutcome {
  agentName: string;
  task: string;
  reason: string;
  status: 'done' | 'failed';
  output?: string;
  error?: string;
}

/** What a MultiAgentRouter run returns: every route with its reason and outcome, in decision order. */
export interface MultiAgentRouterResult<TOutput = string> extends TopologyResult {
  /** With `outputType`: the routed member's answer as that object. */
  finalOutput?: TOutput;
  routes: RouteOutcome[];
}

/**
 * A model reads the task and picks one or more members, writing a task and a reason for each
 * (validated: only real member names); the chosen members run concurrently and every result is
 * kept, failures included.
 */
export class MultiAgentRouter<TOutput = string> extends BaseTopology<MultiAgentRouterResult<TOutput>> {
  readonly type = 'MultiAgentRouter';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly maxRoutes: number;
  readonly maxWorkers: number | undefined;
  readonly #model: Model;
  readonly #instructions: string | undefined;
  // Made at the first run, then reused: core converts a schema to JSON Schema once per schema object.
  #routeSchema: ReturnType<typeof routeSchema> | undefined;
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: MultiAgentRouterOptions<TOutput>) {
    super();
    const owner = 'MultiAgentRouter';
    this.agents = validateMembers(options?.agents, owner);
    this.#model = resolveModel(options.model);
    this.#outputType = validateOutputType(options.outputType, owner);
    if (this.#outputType) typedRoutesOnly(owner, this.agents, options.maxRoutes);
    const routes = this.#outputType ? 1 : this.agents.length;
    this.maxRoutes = integerOption(owner, 'maxRoutes', options.maxRoutes, routes, 1);
    this.maxWorkers = optionalIntegerOption(owner, 'maxWorkers', options.maxWorkers);
    this.name = options.name ?? 'multi-agent-router';
    this.#instructions = options.instructions;
    this.withGuardrails(options);
  }

  run(task: string, options: RunOptions = {}): Promise<MultiAgentRouterResult<TOutput>> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('MultiAgentRouter.run: task must be a non-empty string.'));
    }
    return runTopology<MultiAgentRouterResult<TOutput>>(this, { task }, options, async (context) => {
      this.#routeSchema ??= routeSchema(this.agents.map(memberName), this.maxRoutes);
      const schema = this.#routeSchema;
      // No route yet, so nothing to answer from: a budget stop here fails the run.
      const {
        object: { routes },
      } = await generateObject(this.#model, {
        schema,
        name: 'route',
        description: 'Pick the members that should work on the task, with a task for each.',
        system: this.#system(),
        prompt: `Task:\n${task}`,
        purpose: 'route',
        agent: this.name,
        context,
      });
      context.emit({ type: 'router.routes', routes });
      const byName = new Map(this.agents.map((m) => [memberName(m), m]));
      const settled = await mapSettled(
        routes,
        (route) => {
          const outputType = this.#outputType;
          const run = () =>
            runMember(byName.get(route.agentName)!, route.task, context, outputType ? { outputType } : {});
          // The only routed member's answer is the run's answer: an empty one is asked for again.
          return routes.length === 1 ? nonEmptyAnswer(route.agentName, context, run) : run();
        },
        {
          ...(this.maxWorkers !== undefined && { concurrency: this.maxWorkers }),
          ...(context.signal && { signal: context.signal }),
        },
      );
      const stop = settledStop(settled);
      const outcomes = settled.map((s, i): RouteOutcome => {
        const route = routes[i]!;
        if (s.status === 'fulfilled') return { ...route, status: 'done', output: s.value.output };
        return { ...route, status: 'failed', error: errorMessage(s.reason) };
      });
      if (!outcomes.some((o) => o.status === 'done')) {
        // Nothing to answer from: the budget error itself, or every route's failure.
        if (stop) throw stop;
        throw new SwarmError(
          'NO_ANSWER',
          `MultiAgentRouter: every route failed (${outcomes.map((o) => `${o.agentName}: ${o.error}`).join('; ')}).`,
          { cause: settled.find((s) => s.status === 'rejected')?.reason },
        );
      }
      const typed =
        this.#outputType && settled[0]?.status === 'fulfilled' ? settled[0].value.finalOutput : undefined;
      return {
        output: combine(outcomes),
        ...(typed !== undefined && { finalOutput: typed as TOutput }),
        routes: outcomes,
        ...interruptionFields(stop?.reason),
      };
    });
  }

  #system(): string {
    const members = this.agents
      .map(
        (m) =>
          `- ${memberName(m)}: ${isTopology(m) ? `a ${m.type} team` : (m.description ?? m.instructions ?? '')}`,
      )
      .join('\n');
    return [
      'You route a task to the members best suited to it. Pick one member, or several when the task has parts for different members, and write each one its task.',
      `Members:\n${members}`,
      this.#instructions,
    ]
      .filter(Boolean)
      .join('\n\n');
  }
}

// With outputType the answer is one member's typed answer: one route, and only Agents to route to.
function typedRoutesOnly(owner: string, agents: readonly Member[], maxRoutes: unknown): void {
  if (maxRoutes !== undefined && maxRoutes !== 1) {
    throw new ConfigError(
      `${owner}: with outputType the answer is one member's, so maxRoutes must be 1 (got ${JSON.stringify(maxRoutes)}).`,
    );
  }
  const topology = agents.find(isTopology);
  if (topology) {
    throw new ConfigError(
      `${owner}: outputType types the routed member's answer, but "${topology.name}" is a ${topology.type}: route to Agents only.`,
    );
  }
}

/** The router's decision: one or more members, each with its own task. */
function routeSchema(names: readonly string[], maxRoutes: number) {
  return z.object({
    routes: z
      .array(
        z.object({
          agentName: z.enum(names as [string, ...string[]]),
          task: z.string().min(1).describe('The task for this member, written out in full.'),
          reason: z.string().describe('Why this member.'),
        }),
      )
      .min(1)
      .max(maxRoutes),
  });
}

// One route's answer as is; several as sections headed by the member.
function combine(outcomes: RouteOutcome[]): string {
  const done = outcomes.filter((o) => o.status === 'done');
  if (done.length === 1 && outcomes.length === 1) return done[0]!.output ?? '';
  return done.map((o) => `## ${o.agentName}\n${o.output}`).join('\n\n');
}
