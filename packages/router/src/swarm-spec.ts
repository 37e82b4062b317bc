import {
  Agent,
  ConfigError,
  errorMessage,
  type Model,
  type ModelLike,
  resolveModel,
  SwarmError,
  type Tool,
  type Topology,
  type TopologyDescriptor,
  tool,
} from '@swarm/core';
import { z } from 'zod';
import { agentCountProblem, registry } from './registry.js';
import { issuesOf, type SpecIssue, SwarmSpecError } from './spec-error.js';
import { SwarmRouter } from './swarm-router.js';

/** A tool of an agent's spec in its long form: the tool's name, and whether its calls need approval. */
const toolSpecSchema = z
  .object({
    name: z.string(),
    needsApproval: z.boolean().optional(),
  })
  .strict();

/** One agent of a spec: plain data, so a spec can live in a YAML or JSON file. */
export const agentSpecSchema = z
  .object({
    name: z.string().trim().min(1),
    description: z.string().optional(),
    instructions: z.string().optional(),
    /** Any `resolveModel` string; without it the loader's default model. */
    model: z.string().min(1).optional(),
    /**
     * Tools from the loader's tool set: a name, or `{ name, needsApproval: true }` for a call that
     * waits for a person's approval before it runs (the run pauses until it is given).
     */
    tools: z
      .array(
        z.union([z.string(), toolSpecSchema], {
          error: (issue) =>
            typeof issue.input === 'object' && issue.input !== null
              ? undefined
              : 'a tool is a name, or { name, needsApproval }',
        }),
      )
      .optional(),
    maxTurns: z.number().int().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** The agent's answer as an object: a JSON Schema of `type: 'object'` (its `finalOutput`). */
    outputType: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** A whole swarm as data: agents, a topology type and its config, and optionally the task. */
export const swarmSpecSchema = z
  .object({
    name: z.string().optional(),
    description: z.string().optional(),
    agents: z.array(agentSpecSchema).min(1),
    topology: z.string().min(1),
    config: z.record(z.string(), z.unknown()).optional(),
    /**
     * The swarm's answer as an object: a JSON Schema of `type: 'object'`. The topology then runs
     * inside a SwarmRouter whose `outputType` it becomes (the answer, typed, in `finalOutput`).
     */
    outputType: z.record(z.string(), z.unknown()).optional(),
    task: z.string().optional(),
    /** Files that go with the task (images, PDFs): paths a loader such as the CLI reads. */
    attachments: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** A swarm spec, as `loadSwarmSpec` accepts it and `AutoSwarmBuilder.design` returns it. */
export type SwarmSpec = z.infer<typeof swarmSpecSchema>;
/** One agent of a swarm spec. */
export type AgentSpec = z.infer<typeof agentSpecSchema>;
type ToolSpec = z.infer<typeof toolSpecSchema>;

/** What a spec is built with: the topologies it may name, a default model, and the tools it may use. */
export interface LoadSwarmSpecOptions {
  topologies: readonly TopologyDescriptor[];
  /** The model of agents whose spec names none. */
  defaultModel?: ModelLike;
  /** Tools agents may name, by name. */
  tools?: Readonly<Record<string, Tool>>;
}

/** A built spec: the validated spec, its agents and its topology, ready to run. */
export interface LoadedSwarm {
  spec: SwarmSpec;
  /** Typed (`Agent<unknown>`): a spec's `outputType` is data, so its object is known only at run time. */
  agents: Agent<unknown>[];
  descriptor: TopologyDescriptor;
  topology: Topology;
}

/**
 * Validates a spec (an object parsed from YAML or JSON) and builds its topology through the
 * descriptors. Every problem is reported at its path in the spec (`agents[1].model`,
 * `config.flow`) in one `SwarmSpecError`: a wrong type does not hide the unknown tools, duplicate
 * names or bad config around it, so one try shows them all.
 */
export function loadSwarmSpec(spec: unknown, options: LoadSwarmSpecOptions): LoadedSwarm {
  const byType = registry(options.topologies, 'loadSwarmSpec');
  const parsed = swarmSpecSchema.safeParse(spec);
  const issues: SpecIssue[] = parsed.success ? [] : issuesOf(parsed.error);
  // What the schema could not check is checked on whatever of the spec has the right shape.
  const raw = record(spec) ?? {};

  const type = typeof raw.topology === 'string' && raw.topology !== '' ? raw.topology : undefined;
  const descriptor = type === undefined ? undefined : byType.get(type);
  const agentSpecs = Array.isArray(raw.agents) ? raw.agents.map((agent) => record(agent) ?? {}) : [];
  if (type !== undefined && !descriptor) {
    issues.push({
      path: 'topology',
      message: `unknown topology ${JSON.stringify(type)}; registered: ${[...byType.keys()].join(', ')}`,
    });
  } else if (descriptor && agentSpecs.length > 0) {
    const count = agentCountProblem(descriptor, agentSpecs.length);
    if (count) issues.push({ path: 'agents', message: count });
  }

  const seen = new Map<string, number>();
  const agents: Agent<unknown>[] = [];
  agentSpecs.forEach((agent, i) => {
    const name = typeof agent.name === 'string' ? agent.name.trim() : '';
    if (name && seen.has(name)) {
      issues.push({
        path: `agents[${i}].name`,
        message: `"${name}" is also the name of agents[${seen.get(name)}]`,
      });
    }
    if (name && !seen.has(name)) seen.set(name, i);
    if (agent.model === undefined && options.defaultModel === undefined) {
      issues.push({
        path: `agents[${i}].model`,
        message: 'no model: name one here or configure a default model',
      });
    }
    const tools = Array.isArray(agent.tools) ? agent.tools : [];
    tools.forEach((entry: unknown, j) => {
      const name = toolName(entry);
      if (name !== undefined && !options.tools?.[name]) {
        const known = Object.keys(options.tools ?? {});
        issues.push({
          path: `agents[${i}].tools[${j}]`,
          message: `unknown tool "${name}"${known.length ? `; available: ${known.join(', ')}` : '; no tools are available'}`,
        });
      }
    });
    // An agent whose own spec is valid is built now, so its constructor's complaints (a model
    // string no provider takes, a tool named twice) are in the same list as everything else.
    const valid = agentSpecSchema.safeParse(agent);
    if (!valid.success) return;
    const modelLike = valid.data.model ?? options.defaultModel;
    if (modelLike === undefined || valid.data.tools?.some((t) => !options.tools?.[toolName(t)!])) return;
    const model = attempt(`agents[${i}].model`, () => resolveModel(modelLike));
    if ('issue' in model) {
      issues.push(model.issue);
      return;
    }
    const built = attempt(`agents[${i}]`, () => buildAgent(valid.data, model.value, options.tools ?? {}));
    if ('issue' in built) issues.push(built.issue);
    else agents.push(built.value);
  });

  let config: unknown = raw.config ?? {};
  if (descriptor?.configSchema && record(config)) {
    const checked = descriptor.configSchema.safeParse(config);
    if (checked.success) config = checked.data;
    else issues.push(...issuesOf(checked.error, ['config']));
  }
  const answerType =
    record(raw.outputType) === undefined
      ? undefined
      : attempt('outputType', () => topologyOutputType(raw.outputType));
  if (answerType && 'issue' in answerType) issues.push(answerType.issue);
  if (issues.length > 0 || !parsed.success || !descriptor) throw new SwarmSpecError(issues);
  const valid = parsed.data;
  const schema = answerType && 'value' in answerType ? answerType.value : undefined;

  const topology = attempt(
    (message) => configPath(message, valid.config ?? {}),
    (): Topology =>
      schema
        ? new SwarmRouter({
            name: valid.name ?? descriptor.type,
            agents: [...agents],
            swarmType: descriptor.type,
            topologies: [descriptor],
            config: valid.config ?? {},
            outputType: schema,
          })
        : descriptor.create([...agents], config),
  );
  if ('issue' in topology) throw new SwarmSpecError([topology.issue]);
  return { spec: valid, agents, descriptor, topology: topology.value };
}

function buildAgent(spec: AgentSpec, model: Model, tools: Readonly<Record<string, Tool>>): Agent<unknown> {
  // A spec's schema is data, known only at run time: the object it gives is `unknown` to the code.
  return new Agent<unknown>({
    name: spec.name,
    model,
    ...(spec.description !== undefined && { description: spec.description }),
    ...(spec.instructions !== undefined && { instructions: spec.instructions }),
    ...(spec.maxTurns !== undefined && { maxTurns: spec.maxTurns }),
    ...(spec.temperature !== undefined && { temperature: spec.temperature }),
    ...(spec.outputType !== undefined && { outputType: outputTypeOf(spec.outputType) }),
    ...(spec.tools && { tools: spec.tools.map((entry) => specTool(entry, tools)) }),
  });
}

// A spec's topology-level outputType: a JSON Schema of an object (what a typed answer can be).
function topologyOutputType(schema: unknown): z.ZodObject {
  const zod = outputTypeOf(schema as Record<string, unknown>);
  if (!(zod instanceof z.ZodObject)) {
    throw new ConfigError('outputType must be a JSON Schema of type "object" (the answer as an object).');
  }
  return zod;
}

// The zod schema of an agent's JSON Schema outputType; one zod cannot read is a ConfigError.
function outputTypeOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ConfigError(`outputType is not a JSON Schema zod can read: ${errorMessage(error)}`);
  }
}

// The name a tool entry of a spec gives (its short or long form); undefined for anything else.
function toolName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  const name = record(entry)?.name;
  return typeof name === 'string' ? name : undefined;
}

// The tool an entry names; its long form may ask that every call wait for approval.
function specTool(entry: ToolSpec | string, tools: Readonly<Record<string, Tool>>): Tool {
  if (typeof entry === 'string') return tools[entry]!;
  const named = tools[entry.name]!;
  // Through tool(), so that what it refuses (an approval on a tool that is not journaled) is refused here.
  return entry.needsApproval === undefined ? named : tool({ ...named, needsApproval: entry.needsApproval });
}

// The object a spec value is, or undefined when it is not a plain object.
function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// Builds a part of the spec; a constructor's ConfigError becomes an issue at the place in the spec
// it came from (`path` may read the message to find it). Any other error is thrown.
function attempt<T>(
  path: string | ((message: string) => string),
  build: () => T,
): { value: T } | { issue: SpecIssue } {
  try {
    return { value: build() };
  } catch (error) {
    if (SwarmError.isInstance(error) && error.code === 'CONFIG') {
      return {
        issue: { path: typeof path === 'string' ? path : path(error.message), message: error.message },
      };
    }
    throw error;
  }
}

/**
 * Where in the spec a topology constructor's complaint belongs: `config.<key>` (with its index,
 * `config.edges[0]`) for the config key its message names first, else `config`. Constructors name
 * the option they refuse (`AgentRearrange: unknown member ... of the flow`), so this finds it.
 */
function configPath(message: string, config: Readonly<Record<string, unknown>>): string {
  const text = message.replace(/^[\w .]+?:\s/, ''); // drop the "Owner: " prefix
  let best: { at: number; path: string } | undefined;
  for (const key of Object.keys(config)) {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = new RegExp(`(?<![\\w.])${escaped}(\\[\\d+\\])?(?![\\w])`).exec(text);
    if (found && (best === undefined || found.index < best.at)) {
      best = { at: found.index, path: `config.${key}${found[1] ?? ''}` };
    }
  }
  return best?.path ?? 'config';
}
