export type { BudgetReason } from '@swarm/core';
export { adjustForRecency, type Bid, clampScore, speakingOrder } from './bidding.js';
export {
  CouncilAsAJudge,
  type CouncilAsAJudgeOptions,
  type CouncilAsAJudgeResult,
  type CouncilInput,
  type DimensionScore,
  judgeSchema,
} from './council-as-a-judge.js';
export {
  type CouncilAsAJudgeDescriptorConfig,
  councilAsAJudgeConfigSchema,
  councilAsAJudgeDescriptor,
} from './council-as-a-judge-descriptor.js';
export {
  type Argument,
  type DebateRound,
  DebateWithJudge,
  type DebateWithJudgeOptions,
  type DebateWithJudgeResult,
  type Verdict,
  verdictSchema,
} from './debate-with-judge.js';
export {
  type DebateWithJudgeDescriptorConfig,
  debateWithJudgeConfigSchema,
  debateWithJudgeDescriptor,
} from './debate-with-judge-descriptor.js';
export { type Dimension, defaultDimensions } from './dimensions.js';
export {
  type Bidding,
  type ChatMessage,
  type ChatRound,
  GroupChat,
  type GroupChatOptions,
  type GroupChatResult,
  intentSchema,
  type PromptBias,
  respondSchema,
} from './group-chat.js';
export {
  type GroupChatDescriptorConfig,
  groupChatConfigSchema,
  groupChatDescriptor,
} from './group-chat-descriptor.js';
export {
  type CouncilAnswer,
  type CouncilFailure,
  LLMCouncil,
  type LLMCouncilOptions,
  type LLMCouncilResult,
} from './llm-council.js';
export {
  type LLMCouncilDescriptorConfig,
  llmCouncilConfigSchema,
  llmCouncilDescriptor,
} from './llm-council-descriptor.js';
export {
  MajorityVoting,
  type MajorityVotingOptions,
  type MajorityVotingResult,
  voteSchema,
} from './majority-voting.js';
export {
  type MajorityVotingDescriptorConfig,
  majorityVotingConfigSchema,
  majorityVotingDescriptor,
} from './majority-voting-descriptor.js';
export type { MemberAnswer, MemberFailure } from './member-outcomes.js';
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
export { type AggregateRank, anonymousIds, meanRank, type Ranking } from './rank-aggregation.js';
export { normalizeAnswer, type TallyEntry, tallyVotes, type Vote } from './tally.js';
