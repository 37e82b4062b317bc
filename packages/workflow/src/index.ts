export type { BudgetReason } from '@swarm/core';
export {
  AgentRearrange,
  type AgentRearrangeOptions,
  type AgentRearrangeResult,
  type FlowRecord,
  type HumanStep,
  type HumanStepInfo,
  humanName,
} from './agent-rearrange.js';
export {
  BatchedGridWorkflow,
  type BatchedGridWorkflowOptions,
  type BatchedGridWorkflowResult,
  type GridRecord,
} from './batched-grid-workflow.js';
export {
  aggregatorPrompt,
  ConcurrentWorkflow,
  type ConcurrentWorkflowOptions,
  type ConcurrentWorkflowResult,
} from './concurrent-workflow.js';
export {
  type AgentRearrangeConfig,
  agentRearrangeDescriptor,
  type BatchedGridWorkflowConfig,
  batchedGridWorkflowDescriptor,
  type ConcurrentWorkflowConfig,
  concurrentWorkflowDescriptor,
  type GraphWorkflowConfig,
  graphWorkflowDescriptor,
  type RoundRobinConfig,
  roundRobinDescriptor,
  type SequentialWorkflowConfig,
  sequentialWorkflowDescriptor,
} from './descriptors.js';
export { type FlowItem, type FlowStep, parseFlow } from './flow-parser.js';
export { GraphWorkflow, type GraphWorkflowOptions, type GraphWorkflowResult } from './graph-workflow.js';
export type { MemberOutput, MemberRecord } from './member-run.js';
export {
  RoundRobin,
  type RoundRobinOptions,
  type RoundRobinResult,
  type RoundRobinTurn,
} from './round-robin.js';
export {
  SequentialWorkflow,
  type SequentialWorkflowOptions,
  type SequentialWorkflowResult,
} from './sequential-workflow.js';
export type { ContextMode } from './shared-context.js';
