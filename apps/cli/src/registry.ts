import {
  councilAsAJudgeDescriptor,
  debateWithJudgeDescriptor,
  groupChatDescriptor,
  llmCouncilDescriptor,
  majorityVotingDescriptor,
  mixtureOfAgentsDescriptor,
} from '@swarm/collective';
import type { TopologyDescriptor } from '@swarm/core';
import { forestDescriptor } from '@swarm/forest';
import { swarmDescriptor } from '@swarm/handoff';
import {
  heavySwarmDescriptor,
  hierarchicalSwarmDescriptor,
  plannerWorkerSwarmDescriptor,
} from '@swarm/hierarchy';
import { autoSwarmBuilderDescriptor, multiAgentRouterDescriptor } from '@swarm/router';
import { coordinatedTreeOfThoughtsDescriptor, treeOfThoughtsDescriptor } from '@swarm/tot';
import {
  agentRearrangeDescriptor,
  batchedGridWorkflowDescriptor,
  concurrentWorkflowDescriptor,
  graphWorkflowDescriptor,
  roundRobinDescriptor,
  sequentialWorkflowDescriptor,
} from '@swarm/workflow';

const base: TopologyDescriptor[] = [
  forestDescriptor as TopologyDescriptor,
  treeOfThoughtsDescriptor as TopologyDescriptor,
  coordinatedTreeOfThoughtsDescriptor as TopologyDescriptor,
  swarmDescriptor as TopologyDescriptor,
  multiAgentRouterDescriptor as TopologyDescriptor,
  sequentialWorkflowDescriptor as TopologyDescriptor,
  concurrentWorkflowDescriptor as TopologyDescriptor,
  agentRearrangeDescriptor as TopologyDescriptor,
  roundRobinDescriptor as TopologyDescriptor,
  batchedGridWorkflowDescriptor as TopologyDescriptor,
  graphWorkflowDescriptor as TopologyDescriptor,
  hierarchicalSwarmDescriptor as TopologyDescriptor,
  plannerWorkerSwarmDescriptor as TopologyDescriptor,
  heavySwarmDescriptor as TopologyDescriptor,
  mixtureOfAgentsDescriptor as TopologyDescriptor,
  majorityVotingDescriptor as TopologyDescriptor,
  councilAsAJudgeDescriptor as TopologyDescriptor,
  llmCouncilDescriptor as TopologyDescriptor,
  groupChatDescriptor as TopologyDescriptor,
  debateWithJudgeDescriptor as TopologyDescriptor,
];

/** Every topology the command knows, as the packages export their descriptors. */
export const topologies: TopologyDescriptor[] = [
  ...base,
  autoSwarmBuilderDescriptor(base) as TopologyDescriptor,
];
