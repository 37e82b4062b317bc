import {
  Agent,
  ConfigError,
  concurrencyOption,
  type GuardrailOptions,
  integerOption,
  isMember,
  isTopology,
  type Member,
  type ModelLike,
  numberOption,
  optionalIntegerOption,
  resolveModel,
  type Tool,
  type Topology,
} from '@swarm/core';
import { type RoleName, roleSystemPrompts } from './coordinated-prompts.js';

export type { RoleName } from './coordinated-prompts.js';

/** Every role, in the order results and traces list them. */
export const roleNames = ['planner', 'researcher', 'analyzer', 'critic', 'synthesizer'] as const;

/** A role that must answer with validated structured output: an Agent (its model and instructions) or a model. */
export type StructuredRole = Agent<unknown> | ModelLike;

/** A role that answers in free text: an Agent, a whole Topology (run nested), or a model. */
export type FreeTextRole = Member | ModelLike;

/**
 * Who plays each role. A role left out uses the default model (`model`, else `coordinator`). The
 * Planner, Analyzer and Critic answer through `generateObject`, so they must be an Agent or a model.
 */
export interface CoordinatedModels {
  planner?: StructuredRole;
  /** Runs with `researchTools` (and an Agent's own tools); with no tool at all it is skipped. */
  researcher?: FreeTextRole;
  analyzer?: StructuredRole;
  critic?: StructuredRole;
  synthesizer?: FreeTextRole;
  /**
   * The seed's `COORDINATOR_MODEL_CONFIG`. The coordinator itself is code and makes no model call,
   * so this model is the default of every role not given (the same as `model`).
   */
  coordinator?: ModelLike;
}

/** Options of `CoordinatedTreeOfThoughts` (DESIGN 5.2), with the run's input and output guardrails. */
export interface CoordinatedTreeOfThoughtsOptions extends GuardrailOptions {
  /** Default `'Coordinated-Tree-of-Thoughts'`. */
  name?: string;
  description?: string;
  /** Who plays each role. */
  models?: CoordinatedModels;
  /** The default model of every role not set in `models`. */
  model?: ModelLike;
  /** Tools for the Researcher (a web search tool, say). Without any, research is skipped. */
  researchTools?: Tool[];
  /** Deepest level of thoughts; a path still active at this depth ends the loop (default 5). */
  maxDepth?: number;
  /**
   * Most nodes kept active per level, the best scores first: an integer >= 1 or `Infinity` for no
   * beam (default 2, so a level makes at most 12 evaluation calls and stays on its critical path
   * under a shared limiter of 12 or more; see the README).
   */
  beamWidth?: number;
  /** Nodes scoring at least this are synthesized (default 7.0, on the 0 to 10 scale). */
  scoreThreshold?: number;
  /** How many of the best nodes are synthesized when none reaches the threshold (default 3). */
  topN?: number;
  /** Most nodes sent to the Synthesizer, the best first (default 12), so its prompt stays bounded. */
  maxSynthesisNodes?: number;
  /** Distinct strategies the Planner proposes for the problem (default 3). */
  initialThoughts?: number;
  /** Model calls started per minute across every role, through a core `Limiter` (default: no limit). */
  requestsPerMinute?: number;
  /**
   * Nodes generated from or evaluated at once: an integer >= 1 or `Infinity` (default `Infinity`,
   * so each level takes one call's time; a shared `limiter` still caps the calls).
   */
  maxWorkers?: number;
  /** Repair turns of each structured call (Planner, Analyzer, Critic) on invalid output (default 1). */
  maxRepairs?: number;
}

/** How a role is played at run time: an Agent (built from a model when a model was given) or a Topology. */
export type RolePlayer =
  | {
      kind: 'agent';
      agent: Agent<unknown>;
      /** Tools added to each of its runs (a user's researcher Agent gets `researchTools`). */
      tools: Tool[];
    }
  | { kind: 'topology'; topology: Topology };

/**
 * The default beam: at most 2 active nodes a level, so at most 6 new nodes and 12 evaluation calls
 * (Analyzer and Critic) a level. Without a beam the tree roughly doubles per level, and a level
 * outgrows any shared limiter (measured: 1.67x the critical path under a limiter of 16, 2.59x of 8).
 */
export const DEFAULT_BEAM_WIDTH = 2;

/** Calls the built-in researcher may make per node: up to three rounds of tool calls, then its findings. */
export const RESEARCHER_MAX_TURNS = 4;

/** Options with defaults applied, validated, and every role resolved. */
export interface ResolvedCoordinatedOptions {
  name: string;
  description: string;
  planner: Agent<unknown>;
  /** `undefined` when research is skipped (no tool to research with). */
  researcher: RolePlayer | undefined;
  analyzer: Agent<unknown>;
  critic: Agent<unknown>;
  synthesizer: RolePlayer;
  researchTools: Tool[];
  maxDepth: number;
  /** `Infinity` when the user asked for no beam. */
  beamWidth: number;
  scoreThreshold: number;
  topN: number;
  maxSynthesisNodes: number;
  initialThoughts: number;
  requestsPerMinute: number | undefined;
  maxWorkers: number;
  maxRepairs: number;
}

const owner = 'CoordinatedTreeOfThoughts';

/** Applies the defaults and throws a `ConfigError` naming the first invalid option. */
export function resolveCoordinatedOptions(
  options: CoordinatedTreeOfThoughtsOptions,
): ResolvedCoordinatedOptions {
  if (typeof options !== 'object' || options === null) fail('options must be an object');
  const models = options.models ?? {};
  if (typeof models !== 'object' || models === null) fail('models must be an object of roles');
  const known = new Set<string>([...roleNames, 'coordinator']);
  for (const key of Object.keys(models)) {
    if (!known.has(key)) fail(`models.${key} is not a role; the roles are ${[...known].join(', ')}`);
  }
  if (options.model !== undefined && models.coordinator !== undefined) {
    fail('give the default model once: as model or as models.coordinator, not both');
  }
  const fallback = options.model ?? models.coordinator;
  if (fallback !== undefined)
    checkModel(options.model !== undefined ? 'model' : 'models.coordinator', fallback);

  const researchTools = options.researchTools ?? [];
  if (!Array.isArray(researchTools)) fail('researchTools must be an array of tools');
  researchTools.forEach((t, i) => {
    if (typeof t?.name !== 'string' || typeof t.execute !== 'function') {
      fail(`researchTools[${i}] is not a tool (make one with tool() from @swarm/core)`);
    }
  });

  const resolved: ResolvedCoordinatedOptions = {
    name: options.name ?? 'Coordinated-Tree-of-Thoughts',
    description:
      options.description ??
      'A coordinator runs a Tree of Thoughts with a Planner, a Researcher, an Analyzer, a Critic and a Synthesizer.',
    planner: structuredRole('planner', models.planner, fallback),
    researcher: researcherRole(models.researcher, fallback, researchTools),
    analyzer: structuredRole('analyzer', models.analyzer, fallback),
    critic: structuredRole('critic', models.critic, fallback),
    synthesizer: freeTextRole('synthesizer', models.synthesizer, fallback),
    researchTools: [...researchTools],
    maxDepth: integerOption(owner, 'maxDepth', options.maxDepth, 5, 1),
    beamWidth: beamWidthOption(options.beamWidth),
    scoreThreshold: numberOption(owner, 'scoreThreshold', options.scoreThreshold, 7, 0, 10),
    topN: integerOption(owner, 'topN', options.topN, 3, 1),
    maxSynthesisNodes: integerOption(owner, 'maxSynthesisNodes', options.maxSynthesisNodes, 12, 1),
    initialThoughts: integerOption(owner, 'initialThoughts', options.initialThoughts, 3, 1),
    requestsPerMinute: optionalIntegerOption(owner, 'requestsPerMinute', options.requestsPerMinute),
    maxWorkers: concurrencyOption(owner, 'maxWorkers', options.maxWorkers),
    maxRepairs: integerOption(owner, 'maxRepairs', options.maxRepairs, 1, 0),
  };
  if (typeof resolved.name !== 'string' || resolved.name.trim() === '')
    fail('name must be a non-empty string');
  if (typeof resolved.description !== 'string') fail('description must be a string');
  return resolved;
}

// The Planner, Analyzer and Critic answer with validated objects: a Topology cannot, so it is refused.
function structuredRole(role: RoleName, given: unknown, fallback: ModelLike | undefined): Agent<unknown> {
  if (isTopology(given)) {
    fail(
      `models.${role} is a Topology, but the ${role} must answer with structured output: give an Agent or a model`,
    );
  }
  if (isMember(given)) return given as Agent<unknown>;
  const model = modelFor(role, given, fallback);
  return new Agent({ name: role, model, instructions: roleSystemPrompts[role] });
}

function freeTextRole(role: RoleName, given: unknown, fallback: ModelLike | undefined): RolePlayer {
  if (isTopology(given)) return { kind: 'topology', topology: given };
  if (isMember(given)) return { kind: 'agent', agent: given as Agent<unknown>, tools: [] };
  const model = modelFor(role, given, fallback);
  // One call, exactly: the built-in synthesizer has no tools, so it never needs a second turn.
  return {
    kind: 'agent',
    agent: new Agent({ name: role, model, instructions: roleSystemPrompts[role], maxTurns: 1 }),
    tools: [],
  };
}

function researcherRole(
  given: unknown,
  fallback: ModelLike | undefined,
  tools: Tool[],
): RolePlayer | undefined {
  if (isTopology(given)) {
    if (tools.length > 0) {
      fail('researchTools go to a researcher Agent or model; a Topology researcher brings its own tools');
    }
    return { kind: 'topology', topology: given };
  }
  if (isMember(given)) {
    const agent = given as Agent<unknown>;
    const own = new Set(agent.tools.map((t) => t.name));
    const twice = tools.find((t) => own.has(t.name));
    if (twice)
      fail(`researchTools has "${twice.name}", which the researcher Agent "${agent.name}" already has`);
    return agent.tools.length + tools.length > 0 ? { kind: 'agent', agent, tools } : undefined;
  }
  if (tools.length === 0) {
    if (given !== undefined) checkModel('models.researcher', given);
    return undefined;
  }
  const model = modelFor('researcher', given, fallback);
  return {
    kind: 'agent',
    agent: new Agent({
      name: 'researcher',
      model,
      instructions: roleSystemPrompts.researcher,
      tools,
      maxTurns: RESEARCHER_MAX_TURNS,
    }),
    tools: [],
  };
}

function modelFor(role: RoleName, given: unknown, fallback: ModelLike | undefined): ModelLike {
  if (given !== undefined) {
    checkModel(`models.${role}`, given);
    return given as ModelLike;
  }
  if (fallback === undefined) {
    fail(`no model for the ${role}: give models.${role}, or a default model (model or models.coordinator)`);
  }
  return fallback;
}

function checkModel(option: string, value: unknown): void {
  try {
    resolveModel(value as ModelLike);
  } catch (error) {
    fail(`${option}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function beamWidthOption(value: unknown): number {
  if (value === undefined) return DEFAULT_BEAM_WIDTH;
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(`beamWidth must be an integer >= 1, or Infinity for no beam (got ${String(value)})`);
  }
  return value;
}

function fail(message: string): never {
  throw new ConfigError(`${owner}: ${message}.`);
}
