import { type Agent, ConfigError, isMember, isTopology, type Member, memberName } from '@swarm/core';

/** Checks an optional integer option: `min` or more (and at most `max`), else a ConfigError naming it. */
export function integerOption(
  owner: string,
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max = Number.POSITIVE_INFINITY,
): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    const range = Number.isFinite(max) ? `between ${min} and ${max}` : `>= ${min}`;
    throw new ConfigError(`${owner}: ${option} must be an integer ${range} (got ${chosen}).`);
  }
  return chosen;
}

/** Checks an optional number option within `[min, max]`, else a ConfigError naming it. */
export function numberOption(
  owner: string,
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !(chosen >= min && chosen <= max)) {
    throw new ConfigError(`${owner}: ${option} must be a number between ${min} and ${max} (got ${chosen}).`);
  }
  return chosen;
}

/**
 * Checks that a member who must make structured decisions (forced function calls) is an Agent:
 * a Topology answers in text only, so it cannot bid, vote, rank or judge.
 */
export function requireAgent(owner: string, option: string, member: Member, why: string): Agent {
  if (isTopology(member)) {
    throw new ConfigError(
      `${owner}: ${option} "${memberName(member)}" is a Topology, but ${why}, which needs an Agent (a forced function call). Give an Agent; it may call the topology through topology.asTool().`,
    );
  }
  return member;
}

/** Checks a member option that must be an Agent or a Topology. */
export function requireMember(owner: string, option: string, member: unknown): Member {
  if (!isMember(member)) throw new ConfigError(`${owner}: ${option} must be an Agent or a Topology.`);
  return member;
}

/** The most model calls one `agent.run` can make: one without tools, `maxTurns` with them. */
export function agentRunCalls(agent: Agent): number {
  return agent.tools.length > 0 ? agent.maxTurns : 1;
}
