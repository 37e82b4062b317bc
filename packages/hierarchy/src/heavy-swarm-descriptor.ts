import {
  type Agent,
  ConfigError,
  roleRefSchema,
  splitHead,
  type TopologyDescriptor,
  type WorstCase,
} from '@swarm/core';
import { z } from 'zod';
import { headOf, roleOf } from './descriptor-roles.js';
import { headCalls } from './head.js';
import { HeavySwarm } from './heavy-swarm.js';

/** The JSON config a spec file may give a HeavySwarm (every option but the members). */
export const heavySwarmConfigSchema = z
  .object({
    name: z.string().optional(),
    roles: z
      .strictObject({ captain: roleRefSchema.optional() })
      .optional()
      .describe(
        'captain: the name of the agent who writes the questions and the synthesis (and then does not answer), or a model. Default: a separate captain on headModel, every agent a specialist.',
      ),
    headModel: z
      .string()
      .min(1)
      .optional()
      .describe("The separate captain's model (default the first agent's)."),
    captain: z.string().optional().describe('Same as roles.captain (kept for older specs).'),
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
  minAgents: 1,
  configSchema: heavySwarmConfigSchema,
  create(agents, config = {}) {
    const { captain, roles } = captainAndRoles(agents, config);
    const { captain: _c, roles: _r, headModel: _h, ...rest } = config;
    return new HeavySwarm({ ...rest, agents: roles, questioner: captain, synthesizer: captain });
  },
  worstCase(agents, config = {}): WorstCase {
    const { captain, roles } = captainAndRoles(agents, config);
    const head = headCalls(captain, config.maxRepairs);
    const perLoop = head.typed + roles.reduce((sum, r) => sum + r.maxTurns, 0) + head.prose;
    return { maxCalls: (config.maxLoops ?? 1) * perLoop };
  },
};

// As swarms: every agent is a specialist and a separate captain runs on headModel (default the first
// agent's model), unless roles.captain names an agent (who then only asks and synthesizes) or gives a model.
function captainAndRoles(agents: readonly Agent<unknown>[], config: HeavySwarmConfig) {
  const given = roleOf('HeavySwarm', 'captain', config.roles?.captain, config.captain);
  const { head, workers } = splitHead('HeavySwarm descriptor', 'captain', agents, given, config.headModel);
  if (workers.length === 0) {
    throw new ConfigError('HeavySwarm descriptor: give a captain and at least one role agent.');
  }
  return { captain: headOf('HeavySwarm', 'captain', head), roles: workers };
}
