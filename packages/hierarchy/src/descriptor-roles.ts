import { ConfigError, type RoleRef } from '@swarm/core';

/** A role given in `roles` or under its older key of the config, not both. */
export function roleOf(owner: string, role: string, inRoles: RoleRef | undefined, old: string | undefined) {
  if (inRoles !== undefined && old !== undefined) {
    throw new ConfigError(
      `${owner} descriptor: give the ${role} once: in roles.${role} or as ${role}, not both.`,
    );
  }
  return inRoles ?? old;
}
