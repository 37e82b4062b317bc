export {
  aggregatorInput,
  aggregatorPrompt,
  ConcurrentWorkflow,
  type ConcurrentWorkflowOptions,
  type ConcurrentWorkflowResult,
} from './concurrent-workflow.js';
export type { BudgetReason, MemberOutput, MemberRecord } from './member-run.js';
export {
  SequentialWorkflow,
  type SequentialWorkflowOptions,
  type SequentialWorkflowResult,
} from './sequential-workflow.js';
