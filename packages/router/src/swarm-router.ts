import {
  type Agent,
  BaseTopology,
  ConfigError,
  integerOption,
  isTopology,
  type Model,
  type ModelLike,
  mapSettled,
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
import { chooseTopology } from './choose-topology.js';
import { agentCountProblem, registry, unknownType } from './registry.js';
import { issuesOf, SwarmSpecError } from './spec-error.js';

/** Options of a SwarmRouter: the agents, the type to run (or `'auto'`), and the types it knows. */
export interface SwarmRouterOptions {
  name?: string;
  agents: Agent[];
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
}

/** A routed run's result: the topology's own result, plus which type ran and, with `'auto'`, why. */
export type SwarmRouterResult = TopologyResult & {
  swarmType: string;
  reason?: string;
  /** The result of the topology that ran, whole. */
  result: TopologyResult;
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
export class SwarmRouter extends BaseTopology<SwarmRouterResult> {
  readonly type = 'SwarmRouter';
  readonly name: string;
  readonly swarmType: string;
  readonly agents: readonly Agent[];
  readonly #byType: Map<string, TopologyDescriptor>;
  readonly #configs: Readonly<Record<string, unknown>>;
  readonly #givenConfigs: Readonly<Record<string, unknown>>;
  readonly #cache = new Map<string, Topology>();
  readonly #model: Model | undefined;
  // The types 'auto' may choose from (built at construction).
  readonly #candidates: TopologyDescriptor[] = [];

  constructor(options: SwarmRouterOptions) {
    super();
    this.#byType = registry(options?.topologies, 'SwarmRouter');
    const members = validateMembers(options.agents, 'SwarmRouter');
    members.forEach((m, i) => {
      if (isTopology(m)) {
        throw new ConfigError(
          `SwarmRouter: agents[${i}] is a topology; the router builds its topologies from Agents.`,
        );
      }
    });
    this.agents = Object.freeze(members as Agent[]);
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
      this.#model = resolveModel(options.model ?? this.agents[0]!.model);
    } else {
      if (!this.#byType.has(options.swarmType))
        throw unknownType('SwarmRouter', String(options.swarmType), this.#byType);
      // A fixed type is built now, so that a bad config or agent count fails at construction.
      this.#topology(options.swarmType);
    }
  }

  /** The registered types, in the order they were given. */
  get types(): string[] {
    return [...this.#byType.keys()];
  }

  /** Runs the task with the fixed type, or with the type a model chose for it. */
  run(task: string, options: RunOptions = {}): Promise<SwarmRouterResult> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('SwarmRouter.run: task must be a non-empty string.'));
    }
    return runTopology<SwarmRouterResult>(
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
        const result = await this.#topology(swarmType).run(task, { parent: context });
        return {
          output: result.output,
          swarmType,
          ...(reason !== undefined && { reason }),
          ...(result.interrupted && { interrupted: true, interruptionReason: result.interruptionReason }),
          result,
        };
      },
    );
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

  // Builds a type once, from a copy of the agents and its validated config.
  #topology(type: string): Topology {
    const cached = this.#cache.get(type);
    if (cached) return cached;
    const descriptor = this.#byType.get(type);
    if (!descriptor) throw unknownType('SwarmRouter', type, this.#byType);
    const count = agentCountProblem(descriptor, this.agents.length);
    if (count) throw new ConfigError(`SwarmRouter: ${count}.`);
    let config: unknown = this.#configs[type] ?? {};
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
      topology = descriptor.create([...this.agents], config);
    } catch (error) {
      if (SwarmError.isInstance(error)) throw error;
      throw new ConfigError(`SwarmRouter: building ${type} failed: ${String(error)}`, { cause: error });
    }
    this.#cache.set(type, topology);
    return topology;
  }
}
