import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import type { Model, ModelLike } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { resolveModel } from '../primitives/resolve-model.js';
import { isMember, type Member } from './member.js';

/** Who plays a head role (director, planner, captain, chairman, aggregator, judge): an agent's name, a Member, or a model. */
export type RoleRef = string | Member | Model;

/** A `RoleRef` in a descriptor's config: a string in a spec file (a name or a model string), or an Agent or Model given in code. */
export const roleRefSchema: z.ZodType<RoleRef> = z.union([
  z.string().min(1),
  z.custom<Member | Model>(
    (v) =>
      isMember(v) || (typeof v === 'object' && v !== null && typeof (v as Model).generate === 'function'),
    'expected an agent name, a model string, an Agent or a Model',
  ),
]);

/** A descriptor's agents split as swarms does: the head, and the agents who work. */
export interface HeadSplit {
  /** One of the agents or a given Member, or a model the topology builds its own head on. */
  head: Member | Model;
  workers: Agent<unknown>[];
}

/**
 * Splits a descriptor's agents into a head and workers, as swarms does: an agent named in `roles`
 * heads and does not work; a given Member or model heads and every agent works; with no role given,
 * every agent works and the head is separate, on `headModel` or else the first agent's model.
 * So the same agents keep the same roles in every topology and every task.
 */
export function splitHead(
  owner: string,
  role: string,
  agents: readonly Agent<unknown>[],
  given: RoleRef | undefined,
  headModel?: ModelLike,
): HeadSplit {
  const first = agents[0];
  if (!first) throw new ConfigError(`${owner}: give at least one agent.`);
  if (given === undefined)
    return { head: modelOf(owner, 'headModel', headModel ?? first.model), workers: [...agents] };
  if (isMember(given)) return { head: given, workers: agents.filter((a) => a !== given) };
  if (typeof given !== 'string')
    return { head: modelOf(owner, `roles.${role}`, given), workers: [...agents] };
  const named = agents.find((a) => a.name === given);
  if (named) return { head: named, workers: agents.filter((a) => a !== named) };
  try {
    return { head: resolveModel(given), workers: [...agents] };
  } catch (error) {
    throw new ConfigError(
      `${owner}: roles.${role} "${given}" is neither one of the agents (${agents.map((a) => a.name).join(', ')}) nor a model: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function modelOf(owner: string, option: string, model: ModelLike): Model {
  try {
    return resolveModel(model);
  } catch (error) {
    throw new ConfigError(`${owner}: ${option}: ${(error as Error).message}`, { cause: error });
  }
}
