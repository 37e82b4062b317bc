export { AttemptsExhaustedError } from './attempts.js';
export { type DependencyNode, dependencyProblems, findCycle } from './dependency-graph.js';
export type { HeadLike } from './head.js';
export { type HeavyRole, type HeavyRoleSet, heavyRoleSets } from './heavy-roles.js';
export {
  type HeavyLoop,
  HeavySwarm,
  type HeavySwarmOptions,
  type HeavySwarmResult,
  type RoleAnswer,
} from './heavy-swarm.js';
export {
  type HeavySwarmConfig,
  heavySwarmConfigSchema,
  heavySwarmDescriptor,
} from './heavy-swarm-descriptor.js';
export {
  HierarchicalSwarm,
  type HierarchicalSwarmOptions,
  type HierarchicalSwarmResult,
} from './hierarchical-swarm.js';
export {
  type HierarchicalSwarmConfig,
  hierarchicalSwarmConfigSchema,
  hierarchicalSwarmDescriptor,
} from './hierarchical-swarm-descriptor.js';
export type { HierarchyLoop, OrderRecord } from './hierarchy-turns.js';
export {
  type JudgeVerdict,
  judgeVerdictSchema,
  type PlannedTask,
  taskPlanSchema,
} from './planner-schemas.js';
export type { PlannerCycle, TaskRecord } from './planner-turns.js';
export {
  PlannerWorkerSwarm,
  type PlannerWorkerSwarmOptions,
  type PlannerWorkerSwarmResult,
} from './planner-worker-swarm.js';
export {
  type PlannerWorkerSwarmConfig,
  plannerWorkerSwarmConfigSchema,
  plannerWorkerSwarmDescriptor,
} from './planner-worker-swarm-descriptor.js';
export { type HierarchicalOrder, type SwarmSpec, swarmSpecSchema } from './swarm-spec.js';
export { TaskTimeoutError } from './task-timeout.js';
