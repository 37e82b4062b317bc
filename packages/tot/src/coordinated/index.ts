export {
  type CoordinatedTreeOfThoughtsDescriptorConfig,
  type CoordinatedWorstCaseInput,
  coordinatedTreeOfThoughtsConfigSchema,
  coordinatedTreeOfThoughtsDescriptor,
  coordinatedWorstCase,
} from './coordinated-descriptor.js';
export {
  CoordinatedThoughtNode,
  type CoordinatedThoughtNodeJSON,
  type EvaluatorRole,
  type NodeValidation,
  type ThoughtEvaluation,
  type ThoughtNodeData,
  type ThoughtStatus,
  thoughtNodeSchema,
  thoughtStatuses,
  validateThoughtNode,
} from './coordinated-node.js';
export {
  type CoordinatedModels,
  type CoordinatedTreeOfThoughtsOptions,
  type FreeTextRole,
  type RoleName,
  roleNames,
  type StructuredRole,
} from './coordinated-options.js';
export type {
  CoordinatedTreeOfThoughtsResult,
  CoordinatedTreeOfThoughtsResultJSON,
  ExplorationEnd,
  RoleCost,
  SynthesisBasis,
  SynthesizedNode,
} from './coordinated-result.js';
export { CoordinatedTreeOfThoughts } from './coordinated-tree-of-thoughts.js';
export { type ModelsFromEnv, modelsFromEnv } from './models-from-env.js';
export { evaluationSchema, planSchema } from './specialists.js';
