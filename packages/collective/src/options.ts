import {
  type Agent,
  ConfigError,
  isMember,
  isTopology,
  type Member,
  memberName,
  validateOutputType,
} from '@swarm/core';
import type { z } from 'zod';

/**
 * Checks that a member who must make structured decisions (forced function calls) is an Agent:
 * a Topology answers in text only, so it cannot bid, vote, rank or judge.
 */
export function requireAgent(owner: string, option: string, member: Member, why: string): Agent<unknown> {
  if (isTopology(member)) {
    throw new ConfigError(
      `${owner}: ${option} "${memberName(member)}" is a Topology, but ${why}, which needs an Agent (a forced function call). Give an Agent; it may call the topology through topology.asTool().`,
    );
  }
  // Its structured decisions go through generateObject, whatever the agent's own outputType.
  return member;
}

/** Checks a member option that must be an Agent or a Topology. */
export function requireMember(owner: string, option: string, member: unknown): Member {
  if (!isMember(member)) throw new ConfigError(`${owner}: ${option} must be an Agent or a Topology.`);
  return member;
}

/** The most model calls one `agent.run` can make: one without tools, `maxTurns` with them. */
export function agentRunCalls(agent: Agent<unknown>): number {
  return agent.tools.length > 0 ? agent.maxTurns : 1;
}

/**
 * Checks the `outputType` of a topology whose answer is `head`'s (a `z.object(...)`): the head must
 * be an Agent, since a Topology member types its answer itself (give it its own outputType).
 */
export function headOutputType(
  owner: string,
  option: string,
  outputType: unknown,
  head: Member,
): z.ZodObject | undefined {
  const schema = validateOutputType(outputType, owner);
  if (schema && isTopology(head)) {
    throw new ConfigError(
      `${owner}: outputType types the ${option}'s answer, but "${head.name}" is a ${head.type}: make the ${option} an Agent.`,
    );
  }
  return schema;
}
