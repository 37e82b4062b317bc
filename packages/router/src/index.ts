export {
  AutoSwarmBuilder,
  type AutoSwarmBuilderOptions,
  type AutoSwarmBuilderResult,
} from './auto-swarm-builder.js';
export { chooseTopology, type TopologyChoice } from './choose-topology.js';
export {
  MultiAgentRouter,
  type MultiAgentRouterOptions,
  type MultiAgentRouterResult,
  type RouteOutcome,
} from './multi-agent-router.js';
export { autoSwarmBuilderDescriptor, multiAgentRouterDescriptor } from './router-descriptors.js';
export { type RouterOutputType, routerOutputTypes } from './router-knobs.js';
export { formatPath, type SpecIssue, SwarmSpecError } from './spec-error.js';
export {
  type RouterBatchOptions,
  SwarmRouter,
  type SwarmRouterOptions,
  type SwarmRouterResult,
} from './swarm-router.js';
export {
  type AgentSpec,
  agentSpecSchema,
  type LoadedSwarm,
  type LoadSwarmSpecOptions,
  loadSwarmSpec,
  type SwarmSpec,
  swarmSpecSchema,
} from './swarm-spec.js';
