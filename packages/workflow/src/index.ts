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
  aggregatorInput,
  aggregatorPrompt,
  ConcurrentWorkflow,
  type ConcurrentWorkflowOptions,
  type ConcurrentWorkflowResult,
} from './concurrent-workflow.js';
export { type FlowItem, type FlowStep, parseFlow } from './flow-parser.js';
export type { BudgetReason, MemberOutput, MemberRecord } from './member-run.js';
export {
  SequentialWorkflow,
  type SequentialWorkflowOptions,
  type SequentialWorkflowResult,
} from './sequential-workflow.js';
