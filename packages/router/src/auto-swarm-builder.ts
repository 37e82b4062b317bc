import {
  BaseTopology,
  ConfigError,
  type GuardrailOptions,
  generateObject,
  integerOption,
  type Message,
  type Model,
  type ModelLike,
  type RunContext,
  type RunOptions,
  resolveModel,
  runTopology,
  StructuredOutputError,
  SwarmError,
  type Tool,
  type TopologyDescriptor,
  type TopologyResult,
} from '@swarm/core';
import { z } from 'zod';
import { registry } from './registry.js';
import { loadSwarmSpec, type SwarmSpec } from './swarm-spec.js';

/** Options of an AutoSwarmBuilder: the designing model and the topologies it may pick from. */
export interface AutoSwarmBuilderOptions extends GuardrailOptions {
  name?: string;
  /** The model that designs the swarm. */
  model: ModelLike;
  topologies: readonly TopologyDescriptor[];
  /** The model of designed agents that name none (default: the designing model). */
  agentModel?: ModelLike;
  /** Most agents a design may have (default 6). */
  maxAgents?: number;
  /** Designs sent back with their problems before giving up (default 2). */
  maxRepairs?: number;
  /** Tools designed agents may use, by name. */
  tools?: Readonly<Record<string, Tool>>;
}

/** What an AutoSwarmBuilder run returns: the design it built, and the designed swarm's result. */
export interface AutoSwarmBuilderResult extends TopologyResult {
  design: SwarmSpec;
  result: TopologyResult;
}

/**
 * From a task, a model designs the agents (name, description, instructions, model) and picks a
 * registered topology and its config; the design is checked against the topology's descriptor
 * (agent counts, config, flows) and sent back with its problems until it holds. `design(task)`
 * returns it as plain JSON, to save and run later; `run(task)` designs, builds and runs it.
 */
export class AutoSwarmBuilder extends BaseTopology<AutoSwarmBuilderResult> {
  readonly type = 'AutoSwarmBuilder';
  readonly name: string;
  readonly maxAgents: number;
  readonly maxRepairs: number;
  readonly #model: Model;
  readonly #agentModel: ModelLike;
  readonly #topologies: readonly TopologyDescriptor[];
  readonly #tools: Readonly<Record<string, Tool>>;

  constructor(options: AutoSwarmBuilderOptions) {
    super();
    registry(options?.topologies, 'AutoSwarmBuilder');
    this.#topologies = [...options.topologies];
    this.#model = resolveModel(options.model);
    this.#agentModel = options.agentModel ?? this.#model;
    this.#tools = options.tools ?? {};
    this.maxAgents = integerOption('AutoSwarmBuilder', 'maxAgents', options.maxAgents, 6, 1);
    this.maxRepairs = integerOption('AutoSwarmBuilder', 'maxRepairs', options.maxRepairs, 2, 0);
    this.name = options.name ?? 'auto-swarm-builder';
    this.withGuardrails(options);
  }

  /** Designs a swarm for the task, validated against its topology's descriptor; makes no other call. */
  design(task: string, options: RunOptions = {}): Promise<SwarmSpec> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('AutoSwarmBuilder.design: task must be a non-empty string.'));
    }
    return runTopology<TopologyResult & { design: SwarmSpec }>(
      { type: this.type, name: this.name },
      { task, step: 'design' },
      options,
      async (context) => {
        const design = await this.#design(task, context);
        return { output: JSON.stringify(design), design };
      },
    ).then((r) => r.design);
  }

  /** Designs a swarm for the task, builds it, and runs the task with it (nested in this run). */
  run(task: string, options: RunOptions = {}): Promise<AutoSwarmBuilderResult> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('AutoSwarmBuilder.run: task must be a non-empty string.'));
    }
    return runTopology<AutoSwarmBuilderResult>(this, { task }, options, async (context) => {
      const design = await this.#design(task, context);
      const { topology } = loadSwarmSpec(design, this.#loadOptions());
      const result = await topology.run(task, { parent: context });
      return {
        output: result.output,
        design,
        result,
        ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
      };
    });
  }

  async #design(task: string, context: RunContext): Promise<SwarmSpec> {
    const types = this.#topologies.map((d) => d.type) as [string, ...string[]];
    const schema = z.object({
      topology: z.enum(types).describe('How the agents work together.'),
      reason: z.string().describe('Why this topology and these agents fit the task.'),
      agents: z
        .array(
          z.object({
            name: z.string().min(1).describe('Short unique name, letters, digits, - or _.'),
            description: z.string().describe('What this agent is for, in one line.'),
            instructions: z.string().describe("The agent's system prompt."),
          }),
        )
        .min(1)
        .max(this.maxAgents),
      config: z
        .record(z.string(), z.unknown())
        .describe("The topology's config, as its description says (an empty object for the defaults)."),
    });
    const menu = this.#topologies.map((d) => `- ${d.type}: ${d.description}${agentRange(d)}`).join('\n');
    const messages: Message[] = [
      { role: 'user', content: `Design a team of AI agents for this task:\n${task}` },
    ];
    const problems: string[] = [];
    for (let attempt = 0; attempt <= this.maxRepairs; attempt++) {
      const { object } = await generateObject(this.#model, {
        schema,
        name: 'design_swarm',
        description: 'Design the agents and choose how they work together.',
        system: `You design teams of AI agents. Topologies available:\n${menu}`,
        messages,
        purpose: 'design_swarm',
        agent: this.name,
        context,
      });
      const design: SwarmSpec = { topology: object.topology, agents: object.agents, config: object.config };
      const problem = this.#problem(design);
      context.emit({
        type: 'builder.design',
        attempt,
        design,
        reason: object.reason,
        ...(problem && { problem }),
      });
      if (!problem) return design;
      problems.push(problem);
      messages.push(
        { role: 'assistant', content: JSON.stringify(object) },
        { role: 'user', content: `That design cannot be built: ${problem}. Send a corrected design.` },
      );
    }
    throw new StructuredOutputError(
      `AutoSwarmBuilder: no buildable design in ${this.maxRepairs + 1} attempts: ${problems.join(' | ')}`,
      problems,
    );
  }

  // Why the design cannot be built (agent counts, config, flows), or undefined when it can.
  #problem(design: SwarmSpec): string | undefined {
    try {
      loadSwarmSpec(design, this.#loadOptions());
      return undefined;
    } catch (error) {
      if (SwarmError.isInstance(error) && error.code === 'CONFIG') return error.message;
      throw error;
    }
  }

  #loadOptions() {
    return { topologies: this.#topologies, defaultModel: this.#agentModel, tools: this.#tools };
  }
}

function agentRange(d: TopologyDescriptor): string {
  const min = d.minAgents ?? 1;
  return d.maxAgents === undefined ? ` (${min}+ agents)` : ` (${min}-${d.maxAgents} agents)`;
}
