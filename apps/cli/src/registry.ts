import type { TopologyDescriptor } from '@swarm/core';
import { forestDescriptor } from '@swarm/forest';
import { swarmDescriptor } from '@swarm/handoff';
import { autoSwarmBuilderDescriptor, multiAgentRouterDescriptor } from '@swarm/router';
import { treeOfThoughtsDescriptor } from '@swarm/tot';

const base: TopologyDescriptor[] = [
  forestDescriptor as TopologyDescriptor,
  treeOfThoughtsDescriptor as TopologyDescriptor,
  swarmDescriptor as TopologyDescriptor,
  multiAgentRouterDescriptor as TopologyDescriptor,
];

/** Every topology the command knows, as the packages export their descriptors. */
export const topologies: TopologyDescriptor[] = [
  ...base,
  autoSwarmBuilderDescriptor(base) as TopologyDescriptor,
];
