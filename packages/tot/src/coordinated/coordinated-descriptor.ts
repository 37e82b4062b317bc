import { type Agent, ConfigError, type TopologyDescriptor, type WorstCase } from '@swarm/core';
import { z } from 'zod';
import { DEFAULT_BEAM_WIDTH, type RoleName, roleNames } from './coordinated-options.js';
import { CoordinatedTreeOfThoughts } from './coordinated-tree-of-thoughts.js';
import { MAX_NEXT_THOUGHTS } from './specialists.js';

/** What a spec file may configure (plain JSON): every option but the roles, which come from the agents. */
export const coordinatedTreeOfThoughtsConfigSchema = z
  .object({
    name: z.string().min(1),
    description: z.string(),
    maxDepth: z.number().int().min(1),
    beamWidth: z.number().int().min(1),
    scoreThreshold: z.number().min(0).max(10),
    topN: z.number().int().min(1),
    maxSynthesisNodes: z.number().int().min(1),
    initialThoughts: z.number().int().min(1),
    requestsPerMinute: z.number().int().min(1),
    maxWorkers: z.number().int().min(1),
    maxRepairs: z.number().int().min(0),
  })
  .partial()
  .strict();

/** The descriptor's config. */
export type CoordinatedTreeOfThoughtsDescriptorConfig = z.infer<typeof coordinatedTreeOfThoughtsConfigSchema>;

/**
 * Lets a router build a coordinated Tree of Thoughts from agents: an agent named after a role
 * (`planner`, `researcher`, `analyzer`, `critic`, `synthesizer`) plays it; the first agent's model
 * plays every role no agent is named after. A researcher plays only with tools of its own.
 */
export const coordinatedTreeOfThoughtsDescriptor: TopologyDescriptor<CoordinatedTreeOfThoughtsDescriptorConfig> =
  {
    type: 'CoordinatedTreeOfThoughts',
    description:
      'A coordinator explores an open problem as a tree of thoughts with specialists: a Planner proposes strategies and next steps, a Researcher gathers facts with its tools, an Analyzer and a Critic score every thought and say when a path should stop, and a Synthesizer answers from the best thoughts across the whole tree. For open questions that need several angles weighed (strategy, research questions, design trade-offs). Costs many model calls per task; bound it with maxDepth and beamWidth.',
    minAgents: 1,
    maxAgents: roleNames.length,
    configSchema:
      coordinatedTreeOfThoughtsConfigSchema as z.ZodType<CoordinatedTreeOfThoughtsDescriptorConfig>,
    create(agents, config = {}) {
      const { roles, fallback } = assignRoles(agents);
      return new CoordinatedTreeOfThoughts({ ...config, model: fallback.model, models: roles });
    },
    worstCase(agents, config = {}) {
      const { roles } = assignRoles(agents);
      return coordinatedWorstCase({
        maxDepth: config.maxDepth ?? 5,
        beamWidth: config.beamWidth ?? DEFAULT_BEAM_WIDTH,
        initialThoughts: config.initialThoughts ?? 3,
        maxRepairs: config.maxRepairs ?? 1,
        researchCalls: roles.researcher && roles.researcher.tools.length > 0 ? roles.researcher.maxTurns : 0,
        synthesisCalls: roles.synthesizer ? roles.synthesizer.maxTurns : 1,
      });
    },
  };

/** The quantities the worst case depends on. */
export interface CoordinatedWorstCaseInput {
  maxDepth: number;
  beamWidth: number | undefined;
  initialThoughts: number;
  maxRepairs: number;
  /** Calls of one research (0 when research is skipped). */
  researchCalls: number;
  /** Calls of the synthesis (1 for the built-in synthesizer). */
  synthesisCalls: number;
}

/**
 * The most model calls of one run: every Planner and evaluator call repaired `maxRepairs` times,
 * the Planner giving the most thoughts it is asked for (3 below the root, for a parent scoring 8
 * or more), and no evaluator ever recommending a stop, so each level keeps `beamWidth` nodes
 * active (all of them without a beam) down to `maxDepth`.
 */
export function coordinatedWorstCase(input: CoordinatedWorstCaseInput): WorstCase {
  const { maxDepth, beamWidth, initialThoughts, maxRepairs, researchCalls, synthesisCalls } = input;
  const structured = maxRepairs + 1;
  let expansions = 1; // the root
  let nodes = 0;
  let generated = initialThoughts;
  for (let depth = 1; depth <= maxDepth; depth++) {
    nodes += generated;
    const active = Math.min(generated, beamWidth ?? generated);
    if (depth < maxDepth) expansions += active;
    generated = active * MAX_NEXT_THOUGHTS;
  }
  const maxCalls = expansions * structured + nodes * (researchCalls + 2 * structured) + synthesisCalls;
  return Number.isSafeInteger(maxCalls)
    ? { maxCalls }
    : {
        maxCalls: undefined,
        reason: `the tree may grow past ${Number.MAX_SAFE_INTEGER} calls without a beamWidth`,
      };
}

function assignRoles(agents: readonly Agent<unknown>[]): {
  roles: Partial<Record<RoleName, Agent<unknown>>>;
  fallback: Agent<unknown>;
} {
  const [fallback] = agents;
  if (!fallback) throw new ConfigError('CoordinatedTreeOfThoughts descriptor: give at least one agent.');
  const roles: Partial<Record<RoleName, Agent<unknown>>> = {};
  if (agents.length === 1 && !isRole(fallback.name)) return { roles, fallback };
  for (const agent of agents) {
    const role = agent.name.toLowerCase();
    if (!isRole(role)) {
      throw new ConfigError(
        `CoordinatedTreeOfThoughts descriptor: with several agents each must be named after a role (${roleNames.join(', ')}); "${agent.name}" is not.`,
      );
    }
    if (roles[role])
      throw new ConfigError(`CoordinatedTreeOfThoughts descriptor: two agents play the ${role}.`);
    roles[role] = agent;
  }
  return { roles, fallback };
}

function isRole(name: string): name is RoleName {
  return (roleNames as readonly string[]).includes(name.toLowerCase());
}
