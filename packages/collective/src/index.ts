export type { BudgetReason, MemberFailure } from './member-outcomes.js';
export {
  type LayerAnswer,
  MixtureOfAgents,
  type MixtureOfAgentsOptions,
  type MixtureOfAgentsResult,
} from './mixture-of-agents.js';
export {
  type MixtureOfAgentsDescriptorConfig,
  mixtureOfAgentsConfigSchema,
  mixtureOfAgentsDescriptor,
} from './mixture-of-agents-descriptor.js';
