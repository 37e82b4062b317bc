export {
  type CoordinatedModels,
  CoordinatedThoughtNode,
  type CoordinatedThoughtNodeJSON,
  CoordinatedTreeOfThoughts,
  type CoordinatedTreeOfThoughtsDescriptorConfig,
  type CoordinatedTreeOfThoughtsOptions,
  type CoordinatedTreeOfThoughtsResult,
  type CoordinatedTreeOfThoughtsResultJSON,
  type CoordinatedWorstCaseInput,
  coordinatedTreeOfThoughtsConfigSchema,
  coordinatedTreeOfThoughtsDescriptor,
  coordinatedWorstCase,
  type EvaluatorRole,
  type ExplorationEnd,
  evaluationSchema,
  type FreeTextRole,
  type ModelsFromEnv,
  modelsFromEnv,
  type NodeValidation,
  planSchema,
  type RoleCost,
  type RoleName,
  roleNames,
  type StructuredRole,
  type SynthesisBasis,
  type SynthesizedNode,
  type ThoughtEvaluation,
  type ThoughtNodeData,
  type ThoughtStatus,
  thoughtNodeSchema,
  thoughtStatuses,
  validateThoughtNode,
} from './coordinated/index.js';
export { NoAnswerError } from './errors.js';
export {
  canReach24,
  checkGame24,
  type Game24Check,
  type Game24EvaluatorOptions,
  game24Answerer,
  game24Evaluator,
  game24Generator,
  game24Task,
  type ParsedExpression,
  parseExpression,
  parseGame24Numbers,
  type Rational,
} from './game24/index.js';
export type {
  AnswerStrategy,
  EvaluationStrategy,
  GenerationStrategy,
  SearchAlgorithm,
  ToTAgentOptions,
  TreeOfThoughtsOptions,
} from './options.js';
export { TREE_OF_THOUGHTS_SYSTEM_PROMPT } from './prompts.js';
export type { TreeOfThoughtsResult, TreeOfThoughtsResultJSON } from './result.js';
export type {
  AnswerInput,
  AnswerWriter,
  EvaluationInput,
  GenerationInput,
  ThoughtCandidate,
  ThoughtEvaluator,
  ThoughtGenerator,
  ThoughtRating,
} from './strategies.js';
export { ThoughtNode, type ThoughtNodeJSON } from './thought-node.js';
export {
  type TreeOfThoughtsDescriptorConfig,
  treeOfThoughtsConfigSchema,
  treeOfThoughtsDescriptor,
} from './tot-descriptor.js';
export { treeOfThoughtsWorstCase } from './tot-worst-case.js';
export { type FormattedOutput, TreeOfThoughts } from './tree-of-thoughts.js';
