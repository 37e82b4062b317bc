import { ConfigError, type TopologyDescriptor } from '@swarm/core';

/** Descriptors by type, checked once: an array of descriptors with distinct types. */
export function registry(topologies: unknown, owner: string): Map<string, TopologyDescriptor> {
  if (!Array.isArray(topologies) || topologies.length === 0) {
    throw new ConfigError(`${owner}: topologies must be a non-empty array of topology descriptors.`);
  }
  const byType = new Map<string, TopologyDescriptor>();
  topologies.forEach((d: TopologyDescriptor, i) => {
    if (typeof d?.type !== 'string' || typeof d.create !== 'function' || typeof d.description !== 'string') {
      throw new ConfigError(
        `${owner}: topologies[${i}] is not a topology descriptor (type, description, create).`,
      );
    }
    if (byType.has(d.type)) throw new ConfigError(`${owner}: two descriptors have the type "${d.type}".`);
    byType.set(d.type, d);
  });
  return byType;
}

/** The error for a type nobody registered, listing the ones that are. */
export function unknownType(
  owner: string,
  type: string,
  byType: Map<string, TopologyDescriptor>,
): ConfigError {
  return new ConfigError(
    `${owner}: unknown topology type ${JSON.stringify(type)}; registered: ${[...byType.keys()].join(', ')}.`,
  );
}

/** Why `count` agents do not fit the descriptor, or undefined when they do. */
export function agentCountProblem(descriptor: TopologyDescriptor, count: number): string | undefined {
  const { minAgents = 1, maxAgents } = descriptor;
  if (count < minAgents) return `${descriptor.type} needs at least ${minAgents} agent(s) (got ${count})`;
  if (maxAgents !== undefined && count > maxAgents) {
    return `${descriptor.type} takes at most ${maxAgents} agent(s) (got ${count})`;
  }
  return undefined;
}
