import { Agent, ConfigError, isMember, type Member, type RoleRef, splitHead } from '@swarm/core';

/**
 * Splits a descriptor's flat agent list into the one agent with a special role (named in the
 * config, else the last) and the rest, so a spec file can name roles without holding agents.
 */
export function splitRole(
  owner: string,
  option: string,
  agents: readonly Agent<unknown>[],
  name: string | undefined,
): { role: Agent<unknown>; rest: Agent<unknown>[] } {
  const index = name === undefined ? agents.length - 1 : agents.findIndex((a) => a.name === name);
  if (index < 0) {
    throw new ConfigError(
      name === undefined
        ? `${owner}: give at least one agent.`
        : `${owner}: ${option} names "${name}", which is not among the agents (${agents.map((a) => a.name).join(', ')}).`,
    );
  }
  return { role: agents[index]!, rest: agents.filter((_, i) => i !== index) };
}

/**
 * A descriptor's head and workers as swarms builds them: every agent works and the head is a
 * separate agent on `headModel` (default the first agent's model) with `instructions`, unless
 * `given` names an agent (who then only heads) or gives an Agent or a model.
 */
export function headAndWorkers(
  owner: string,
  role: string,
  agents: readonly Agent<unknown>[],
  given: RoleRef | undefined,
  headModel: string | undefined,
  instructions: string,
): { head: Member; workers: Agent<unknown>[] } {
  const { head, workers } = splitHead(`${owner} descriptor`, role, agents, given, headModel);
  if (isMember(head)) return { head, workers };
  const taken = new Set(agents.map((a) => a.name));
  const name = taken.has(role) ? `${role} (head)` : role;
  return { head: new Agent({ name, model: head, instructions }), workers };
}

/** A role given in `roles` or under its older key of the config, not both. */
export function roleOf(owner: string, role: string, inRoles: RoleRef | undefined, old: string | undefined) {
  if (inRoles !== undefined && old !== undefined) {
    throw new ConfigError(
      `${owner} descriptor: give the ${role} once: in roles.${role} or as ${role}, not both.`,
    );
  }
  return inRoles ?? old;
}
