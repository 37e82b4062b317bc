import { type Agent, ConfigError } from '@swarm/core';

/**
 * Splits a descriptor's flat agent list into the one agent with a special role (named in the
 * config, else the last) and the rest, so a spec file can name roles without holding agents.
 */
export function splitRole(
  owner: string,
  option: string,
  agents: readonly Agent[],
  name: string | undefined,
): { role: Agent; rest: Agent[] } {
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
