import { ConfigError, isTopology, type Member, type Model, type RoleRef } from '@swarm/core';
import type { HeadLike } from './head.js';

/** A role given in `roles` or under its older key of the config, not both. */
export function roleOf(owner: string, role: string, inRoles: RoleRef | undefined, old: string | undefined) {
  if (inRoles !== undefined && old !== undefined) {
    throw new ConfigError(
      `${owner} descriptor: give the ${role} once: in roles.${role} or as ${role}, not both.`,
    );
  }
  return inRoles ?? old;
}

/**
 * The head `splitHead` gave, as a head can be: an Agent (run as it is; a structured decision is its
 * run's typed output) or a model. A Topology given in `roles` cannot make structured decisions.
 */
export function headOf(owner: string, role: string, head: Member | Model): HeadLike {
  if (isTopology(head)) {
    throw new ConfigError(
      `${owner} descriptor: roles.${role} is a Topology, but the ${role} makes structured decisions: give an Agent's name, an Agent or a model.`,
    );
  }
  return head;
}
