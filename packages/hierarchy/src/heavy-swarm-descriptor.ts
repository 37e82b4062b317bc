import { type Agent, ConfigError, type TopologyDescriptor, type WorstCase } from '@swarm/core';
import { z } from 'zod';
import { HeavySwarm } from './heavy-swarm.js';

/** The JSON config a spec file may give a HeavySwarm (every option but the members). */
export const heavySwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    captain: z
      .string()
      .optional()
      .describe(
        'The agent who writes the questions and the synthesis (default the first), or a model string.',
      ),
    maxLoops: z.number().int().min(1).optional(),
    timeoutMs: z.number().positive().optional(),
    maxWorkers: z.number().int().min(1).optional(),
    maxRepairs: z.number().int().min(0).optional(),
  })
  .strict();

/** The config of `heavySwarmDescriptor`. */
export type HeavySwarmConfig = z.infer<typeof heavySwarmConfigSchema>;

/** Lets a router build a HeavySwarm from a list of agents without depending on this package. */
export const heavySwarmDescriptor: TopologyDescriptor<HeavySwarmConfig> = {
  type: 'HeavySwarm',
  description:
    'A captain writes one focused question per specialist, the specialists answer at the same time, and the captain synthesizes one comprehensive answer, optionally over several rounds. For deep analysis that benefits from several perspectives at once, such as research, risk and alternatives for a decision.',
  minAgents: 2,
  configSchema: heavySwarmConfigSchema,
  create(agents, config = {}) {
    const { captain, roles } = captainAndRoles(agents, config.captain);
    const { captain: _c, ...rest } = config;
    return new HeavySwarm({ ...rest, agents: roles, questioner: captain, synthesizer: captain });
  },
  worstCase(agents, config = {}): WorstCase {
    const { roles } = captainAndRoles(agents, config.captain);
    const perLoop = (config.maxRepairs ?? 2) + 1 + roles.reduce((sum, r) => sum + r.maxTurns, 0) + 1;
    return { maxCalls: (config.maxLoops ?? 1) * perLoop };
  },
};

// `captain` names one of the agents (who then only asks and synthesizes) or is a model string; by default the first agent.
function captainAndRoles(agents: readonly Agent[], captain: string | undefined) {
  const named = captain === undefined ? agents[0] : agents.find((a) => a.name === captain);
  const roles = agents.filter((a) => a !== named);
  if (roles.length === 0) {
    throw new ConfigError('HeavySwarm descriptor: give a captain and at least one role agent.');
  }
  return { captain: (named ?? captain) as Agent | string, roles };
}
