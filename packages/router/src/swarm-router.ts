import {
  type Agent,
  BaseTopology,
  ConfigError,
  Conversation,
  type GuardrailOptions,
  generateObject,
  integerOption,
  isTopology,
  type Model,
  type ModelLike,
  mapSettled,
  nodeBuiltin,
  outputToolName,
  type RunContext,
  type RunOptions,
  resolveModel,
  runTopology,
  type Settled,
  SwarmError,
  type Topology,
  type TopologyDescriptor,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import type { z } from 'zod';
import { chooseTopology } from './choose-topology.js';
import { agentCountProblem, registry, unknownType } from './registry.js';
import { loopKey, outputTypeOf, type RouterOutputType } from './router-knobs.js';
import { issuesOf, SwarmSpecError } from './spec-error.js';
import { withRules } from './with-rules.js';

/** Options of a SwarmRouter: the agents, the type to run (or `'auto'`), and the types it knows. */
export interface SwarmRouterOptions<TOutput = unknown> extends GuardrailOptions {
  name?: string;
  /** The agents every type is built from; typed ones (`outputType`) too, as the topologies take any Member. */
  agents: readonly Agent<unknown>[];
  /** A registered type, or `'auto'` to let a model choose per task. */
  swarmType: string;
  /** The topologies this router may build, as their packages export them. */
  topologies: readonly TopologyDescriptor[];
  /** Config of the chosen type (with a fixed `swarmType`). */
  config?: unknown;
  /** Config per type, for `'auto'` (and overriding `config` for a fixed type). */
  configs?: Readonly<Record<string, unknown>>;
  /** The model that chooses with `'auto'` (default: the first agent's model). */
  model?: ModelLike;
  /**
   * Loops of every type that loops: its `maxLoops`, RoundRobin's `rounds`, MixtureOfAgents'
   * `layers`, MajorityVoting's in consensus mode. A type's own config wins.
   */
  maxLoops?: number;
  /**
   * `'final'` (default) the answer; `'all'` the conversation as text; `'list'` / `'dict'` as JSON,
   * and in `formatted`; or a `z.object(...)`: the answer as a validated object in `finalOutput`.
   */
  outputType?: RouterOutputType | z.ZodType<TOutput>;
  /** One collaboration prompt every agent follows, added to copies of the agents' instructions. */
  rules?: string;
  /** Saves each run's conversation (the task, then every agent's answer) as `<dir>/<runId>.json` (Node.js). */
  autosave?: { dir: string };
}

/** A routed run's result: the topology's own result, plus which type ran and, with `'auto'`, why. */
export type SwarmRouterResult<TOutput = unknown> = TopologyResult & {
  /**
   * With a schema `outputType`: the answer as that object. Else the typed answer of the topology
   * that ran, if it gave one.
   */
  finalOutput?: TOutput;
  swarmType: string;
  reason?: string;
  /** The result of the topology that ran, whole. */
  result: TopologyResult;
  /** With `outputType` `'list'` (`"name: answer"` lines) or `'dict'` (`{ role, content }` entries): the conversation as data. */
  formatted?: string[] | { role: string; content: string }[];
  /** With `autosave`: the file the conversation was saved to. */
  savedTo?: string;
};

/** Options of `batchedRun`: how many tasks at once, and the options of every run. */
export interface RouterBatchOptions extends RunOptions {
  /**
   * How many tasks run at once (default: all of them, so the batch takes as long as its slowest
   * task; a shared `limiter` still caps the model calls in flight). Set it to cap memory or spend.
   */
  maxWorkers?: number;
}

/**
 * One parameter switches among topologies: `swarmType` names any type among the descriptors the
 * router is given, or `'auto'` to let a model choose per task. Each type is built once from the
 * same agents and config and reused; the caller's agents are never changed.
 */
export class SwarmRouter<TOutput = unknown> extends BaseTopology<SwarmRouterResult<TOutput>> {
  readonly type = 'SwarmRouter';
  readonly name: string;
  readonly swarmType: string;
  readonly agents: readonly Agent<unknown>[];
  readonly #byType: Map<string, TopologyDescriptor>;
  readonly #configs: Readonly<Record<string, unknown>>;
  readonly #givenConfigs: Readonly<Record<string, unknown>>;
  readonly #cache = new Map<string, Topology>();
  readonly #model: Model | undefined;
  // The types 'auto' may choose from (built at construction).
  readonly #candidates: TopologyDescriptor[] = [];
  readonly maxLoops: number | undefined;
  /** The conversation format of `output` (`'final'` when `outputType` is a schema). */
  readonly outputType: RouterOutputType;
  readonly #schema: z.ZodObject | undefined;
  readonly autosave: { dir: string } | undefined;

  constructor(options: SwarmRouterOptions<TOutput>) {
    super();
    this.#byType = registry(options?.topologies, 'SwarmRouter');
    const members = validateMembers(options.agents, 'SwarmRouter').map((m, i) => {
      if (isTopology(m)) {
        throw new ConfigError(
          `SwarmRouter: agents[${i}] is a topology; the router builds its topologies from Agents.`,
        );
      }
      return m;
    });
    if (options.rules !== undefined && (typeof options.rules !== 'string' || options.rules.trim() === '')) {
      throw new ConfigError('SwarmRouter: rules must be a non-empty string.');
    }
    const agents = options.rules === undefined ? members : withRules(members, options.rules);
    this.agents = Object.freeze(agents);
    this.maxLoops =
      options.maxLoops === undefined
        ? undefined
        : integerOption('SwarmRouter', 'maxLoops', options.maxLoops, 1, 1);
    const output = outputTypeOf(options.outputType);
    this.outputType = output.format;
    this.#schema = output.schema;
    if (
      options.autosave !== undefined &&
      (typeof options.autosave?.dir !== 'string' || options.autosave.dir.trim() === '')
    ) {
      throw new ConfigError(
        'SwarmRouter: autosave must be { dir: string } (the directory to save conversations in).',
      );
    }
    this.autosave = options.autosave;
    this.name = options.name ?? 'swarm-router';
    this.swarmType = options.swarmType;
    this.#givenConfigs = options.configs ?? {};
    this.#configs = {
      ...(options.swarmType !== 'auto' &&
        options.config !== undefined && { [options.swarmType]: options.config }),
      ...options.configs,
    };
    if (options.swarmType === 'auto') {
      // 'auto' offers only the types that take these agents and build with their config, each
      // built now, so a model's choice never fails for a reason known before the first run.
      const excluded: string[] = [];
      for (const descriptor of this.#byType.values()) {
        const problem = this.#buildProblem(descriptor);
        if (problem) excluded.push(problem);
        else this.#candidates.push(descriptor);
      }
      if (this.#candidates.length === 0) {
        throw new ConfigError(`SwarmRouter: no registered topology fits for 'auto': ${excluded.join('; ')}.`);
      }
    } else {
      if (!this.#byType.has(options.swarmType))
        throw unknownType('SwarmRouter', String(options.swarmType), this.#byType);
      // A fixed type is built now, so that a bad config or agent count fails at construction.
      this.#topology(options.swarmType);
    }
    // The model that chooses ('auto') and writes the typed answer (a schema outputType).
    if (options.swarmType === 'auto' || this.#schema) {
      this.#model = resolveModel(options.model ?? this.agents[0]!.model);
    }
    this.withGuardrails(options);
  }

  /** The registered types, in the order they were given. */
  get types(): string[] {
    return [...this.#byType.keys()];
  }

  /** Runs the task with the fixed type, or with the type a model chose for it. */
  run(task: string, options: RunOptions = {}): Promise<SwarmRouterResult<TOutput>> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('SwarmRouter.run: task must be a non-empty string.'));
    }
    return runTopology<SwarmRouterResult<TOutput>>(
      this,
      { task, swarmType: this.swarmType },
      options,
      async (context) => {
        let swarmType = this.swarmType;
        let reason: string | undefined;
        if (swarmType === 'auto') {
          const names = this.agents.map((a) => a.name);
          ({ swarmType, reason } = await chooseTopology(
            this.#model!,
            task,
            this.#candidates,
            context,
            names,
          ));
        }
        context.emit({
          type: 'router.choice',
          swarmType,
          auto: this.swarmType === 'auto',
          ...(reason && { reason }),
        });
        const conversation = this.#listens() ? new Conversation() : undefined;
        conversation?.add('user', task);
        const result = await this.#topology(swarmType).run(task, {
          parent: context,
          ...(conversation && { onEvent: heard(conversation) }),
        });
        const typed = await this.#typed(task, result, context);
        return {
          ...(await this.#shaped(result, conversation, context)),
          // A typed answer of the topology that ran is the router's answer too.
          ...(result.finalOutput !== undefined && { finalOutput: result.finalOutput as TOutput }),
          ...typed,
          swarmType,
          ...(reason !== undefined && { reason }),
          ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
          result,
        };
      },
    );
  }

  /**
   * Runs a task list on a type that takes one (BatchedGridWorkflow: task i to agent i), as swarms'
   * `run(tasks=...)`. A type that takes one task runs each with `batchedRun` instead.
   */
  runTasks(tasks: readonly string[], options: RunOptions = {}): Promise<SwarmRouterResult> {
    if (!Array.isArray(tasks) || tasks.length === 0 || tasks.some((t) => typeof t !== 'string')) {
      return Promise.reject(
        new ConfigError('SwarmRouter.runTasks: tasks must be a non-empty array of strings.'),
      );
    }
    if (!taskListTypes.has(this.swarmType)) {
      return Promise.reject(
        new ConfigError(
          `SwarmRouter.runTasks: ${this.swarmType} takes one task; a task list goes to ${[...taskListTypes].join(', ')}. Run each task with batchedRun(tasks).`,
        ),
      );
    }
    const swarmType = this.swarmType;
    return runTopology<SwarmRouterResult>(this, { tasks, swarmType }, options, async (context) => {
      context.emit({ type: 'router.choice', swarmType, auto: false });
      const conversation = this.#listens() ? new Conversation() : undefined;
      for (const task of tasks) conversation?.add('user', task);
      const topology = this.#topology(swarmType) as Topology & {
        run(tasks: readonly string[], options: RunOptions): Promise<TopologyResult>;
      };
      const result = await topology.run(tasks, {
        parent: context,
        ...(conversation && { onEvent: heard(conversation) }),
      });
      return {
        ...(await this.#shaped(result, conversation, context)),
        swarmType,
        ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
        result,
      };
    });
  }

  // With a schema outputType: the topology's own typed answer when it fits the schema, else the
  // routing model writes its answer as the object (one structured call, repaired as generateObject's).
  async #typed(
    task: string,
    result: TopologyResult,
    context: RunContext,
  ): Promise<{ output: string; finalOutput: TOutput } | undefined> {
    const schema = this.#schema;
    if (schema === undefined || result.interrupted) return undefined;
    const own = schema.safeParse(result.finalOutput);
    let value: unknown;
    if (own.success) value = own.data;
    else {
      const { object } = await generateObject(this.#model!, {
        schema,
        name: outputToolName,
        description: 'Give the answer below as this object, keeping its content.',
        messages: [
          { role: 'user', content: task },
          { role: 'assistant', content: result.output },
          { role: 'user', content: 'Give that answer as the object the function takes.' },
        ],
        purpose: 'output',
        agent: this.name,
        context,
      });
      value = object;
    }
    return { output: JSON.stringify(value), finalOutput: value as TOutput };
  }

  // The conversation is kept only when an output type or autosave needs it.
  #listens(): boolean {
    return this.outputType !== 'final' || this.autosave !== undefined;
  }

  // The output in the router's output type, and the conversation saved when autosave asks.
  async #shaped(
    result: TopologyResult,
    conversation: Conversation | undefined,
    context: RunContext,
  ): Promise<Pick<SwarmRouterResult, 'output' | 'formatted' | 'savedTo'>> {
    let savedTo: string | undefined;
    if (conversation && this.autosave) {
      const fs = nodeBuiltin<typeof import('node:fs/promises')>(
        'node:fs/promises',
        'SwarmRouter autosave',
        'leave autosave out and save result.formatted yourself.',
      );
      await fs.mkdir(this.autosave.dir, { recursive: true });
      savedTo = `${this.autosave.dir.replace(/[\\/]+$/, '')}/${context.runId}.json`;
      await conversation.save(savedTo);
    }
    const saved = savedTo === undefined ? {} : { savedTo };
    if (!conversation || this.outputType === 'final') return { output: result.output, ...saved };
    if (this.outputType === 'all') return { output: conversation.format('all'), ...saved };
    const formatted =
      this.outputType === 'list'
        ? conversation.format('list')
        : conversation.entries.map((e) => ({ role: e.name ?? e.role, content: e.content }));
    return { output: JSON.stringify(formatted), formatted, ...saved };
  }

  /** Runs many tasks, at most `maxWorkers` at once; settled results in task order. */
  async batchedRun(
    tasks: readonly string[],
    options: RouterBatchOptions = {},
  ): Promise<Settled<SwarmRouterResult>[]> {
    const { maxWorkers, ...runOptions } = options;
    if (!Array.isArray(tasks))
      throw new ConfigError('SwarmRouter.batchedRun: tasks must be an array of strings.');
    const concurrency = integerOption(
      'SwarmRouter.batchedRun',
      'maxWorkers',
      maxWorkers,
      Math.max(1, tasks.length),
      1,
    );
    if (
      runOptions.journal !== undefined ||
      runOptions.runId !== undefined ||
      runOptions.approvals !== undefined
    ) {
      throw new ConfigError(
        'SwarmRouter.batchedRun: each task is a run of its own; to journal them, run each with its own runId.',
      );
    }
    return mapSettled(tasks, (task) => this.run(task, runOptions), {
      concurrency,
      ...(runOptions.signal && { signal: runOptions.signal }),
    });
  }

  // Why a type cannot run with these agents and its config, or undefined once it is built.
  #buildProblem(descriptor: TopologyDescriptor): string | undefined {
    const count = agentCountProblem(descriptor, this.agents.length);
    if (count) return count;
    try {
      this.#topology(descriptor.type);
      return undefined;
    } catch (error) {
      // A config the caller gave and got wrong is their mistake: say so now. A type that cannot
      // build without config nobody gave (a flow, edges) is simply not on the menu.
      const given = Object.hasOwn(this.#configs, descriptor.type);
      if (!given && SwarmError.isInstance(error) && error.code === 'CONFIG')
        return `${descriptor.type}: ${error.message}`;
      throw error;
    }
  }

  // The router's maxLoops under the key this type loops with; the type's own config wins.
  #withLoops(descriptor: TopologyDescriptor, config: unknown): unknown {
    if (this.maxLoops === undefined || typeof config !== 'object' || config === null) return config;
    const key = loopKey(descriptor, config as Record<string, unknown>);
    if (key === undefined) {
      if (this.swarmType !== 'auto' && this.maxLoops > 1) {
        throw new ConfigError(`SwarmRouter: maxLoops: ${descriptor.type} does not loop.`);
      }
      return config;
    }
    return { [key]: this.maxLoops, ...config };
  }

  // Builds a type once, from a copy of the agents and its validated config.
  #topology(type: string): Topology {
    const cached = this.#cache.get(type);
    if (cached) return cached;
    const descriptor = this.#byType.get(type);
    if (!descriptor) throw unknownType('SwarmRouter', type, this.#byType);
    const count = agentCountProblem(descriptor, this.agents.length);
    if (count) throw new ConfigError(`SwarmRouter: ${count}.`);
    let config: unknown = this.#withLoops(descriptor, this.#configs[type] ?? {});
    if (descriptor.configSchema) {
      const parsed = descriptor.configSchema.safeParse(config);
      if (!parsed.success) {
        // Reported where the caller wrote it: `config.x`, or `configs.Type.x` for a config per type.
        const perType = this.swarmType === 'auto' || Object.hasOwn(this.#givenConfigs, type);
        const at = perType ? ['configs', type] : ['config'];
        throw new SwarmSpecError(issuesOf(parsed.error, at));
      }
      config = parsed.data;
    }
    let topology: Topology;
    try {
      // A copy each: a descriptor written in plain JavaScript may still change the array it is given.
      topology = descriptor.create([...this.agents], config);
    } catch (error) {
      if (SwarmError.isInstance(error)) throw error;
      throw new ConfigError(`SwarmRouter: building ${type} failed: ${String(error)}`, { cause: error });
    }
    this.#cache.set(type, topology);
    return topology;
  }
}

// The types whose run takes a task list (task i to agent i).
const taskListTypes = new Set(['BatchedGridWorkflow']);

// Keeps every agent's answer, in the order they ended, as that agent's entry.
function heard(conversation: Conversation) {
  return (event: { type: string; agent?: string; output?: unknown }) => {
    if (event.type === 'agent.end' && typeof event.output === 'string') {
      conversation.add('assistant', event.output, event.agent);
    }
  };
}
