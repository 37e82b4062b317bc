import {
  Agent,
  type ModelLike,
  SwarmError,
  type Tool,
  type Topology,
  type TopologyDescriptor,
} from '@swarm/core';
import { z } from 'zod';
import { agentCountProblem, registry } from './registry.js';
import { issuesOf, type SpecIssue, SwarmSpecError } from './spec-error.js';

/** One agent of a spec: plain data, so a spec can live in a YAML or JSON file. */
export const agentSpecSchema = z
  .object({
    name: z.string().trim().min(1),
    description: z.string().optional(),
    instructions: z.string().optional(),
    /** Any `resolveModel` string; without it the loader's default model. */
    model: z.string().min(1).optional(),
    /** Names of tools from the loader's tool set. */
    tools: z.array(z.string()).optional(),
    maxTurns: z.number().int().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
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
    task: z.string().optional(),
  })
  .strict();

/** A swarm spec, as `loadSwarmSpec` accepts it and `AutoSwarmBuilder.design` returns it. */
export type SwarmSpec = z.infer<typeof swarmSpecSchema>;
/** One agent of a swarm spec. */
export type AgentSpec = z.infer<typeof agentSpecSchema>;

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
  agents: Agent[];
  descriptor: TopologyDescriptor;
  topology: Topology;
}

/**
 * Validates a spec (an object parsed from YAML or JSON) and builds its topology through the
 * descriptors. Every problem is reported at its path in the spec (`agents[1].model`,
 * `config.flow`) in one `SwarmSpecError`.
 */
export function loadSwarmSpec(spec: unknown, options: LoadSwarmSpecOptions): LoadedSwarm {
  const byType = registry(options.topologies, 'loadSwarmSpec');
  const parsed = swarmSpecSchema.safeParse(spec);
  if (!parsed.success) throw new SwarmSpecError(issuesOf(parsed.error));
  const valid = parsed.data;
  const issues: SpecIssue[] = [];

  const descriptor = byType.get(valid.topology);
  if (!descriptor) {
    issues.push({
      path: 'topology',
      message: `unknown topology ${JSON.stringify(valid.topology)}; registered: ${[...byType.keys()].join(', ')}`,
    });
  } else {
    const count = agentCountProblem(descriptor, valid.agents.length);
    if (count) issues.push({ path: 'agents', message: count });
  }

  const seen = new Map<string, number>();
  valid.agents.forEach((agent, i) => {
    if (seen.has(agent.name)) {
      issues.push({
        path: `agents[${i}].name`,
        message: `"${agent.name}" is also the name of agents[${seen.get(agent.name)}]`,
      });
    }
    seen.set(agent.name, i);
    if (!agent.model && options.defaultModel === undefined) {
      issues.push({
        path: `agents[${i}].model`,
        message: 'no model: name one here or configure a default model',
      });
    }
    agent.tools?.forEach((name, j) => {
      if (!options.tools?.[name]) {
        const known = Object.keys(options.tools ?? {});
        issues.push({
          path: `agents[${i}].tools[${j}]`,
          message: `unknown tool "${name}"${known.length ? `; available: ${known.join(', ')}` : '; no tools are available'}`,
        });
      }
    });
  });

  let config: unknown = valid.config ?? {};
  if (descriptor?.configSchema) {
    const checked = descriptor.configSchema.safeParse(config);
    if (checked.success) config = checked.data;
    else issues.push(...issuesOf(checked.error, ['config']));
  }
  if (issues.length > 0 || !descriptor) throw new SwarmSpecError(issues);

  const agents = valid.agents.map((agent, i) =>
    attempt(
      () => `agents[${i}]`,
      () => {
        const model = agent.model ?? options.defaultModel!;
        return new Agent({
          name: agent.name,
          model,
          ...(agent.description !== undefined && { description: agent.description }),
          ...(agent.instructions !== undefined && { instructions: agent.instructions }),
          ...(agent.maxTurns !== undefined && { maxTurns: agent.maxTurns }),
          ...(agent.temperature !== undefined && { temperature: agent.temperature }),
          ...(agent.tools && { tools: agent.tools.map((name) => options.tools![name]!) }),
        });
      },
    ),
  );
  const topology = attempt(
    (message) => configPath(message, valid.config ?? {}),
    () => descriptor.create([...agents], config),
  );
  return { spec: valid, agents, descriptor, topology };
}

// A constructor's ConfigError, reported at the place in the spec it came from.
function attempt<T>(path: (message: string) => string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (SwarmError.isInstance(error) && error.code === 'CONFIG') {
      throw new SwarmSpecError([{ path: path(error.message), message: error.message }]);
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
