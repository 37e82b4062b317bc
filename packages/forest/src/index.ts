export { cosineSimilarity } from '@swarm/embeddings';
export { forestLocalEmbedder } from './default-embedder.js';
export { type ExtractKeywordsOptions, extractKeywords } from './extract-keywords.js';
export { type ForestDescriptorConfig, forestConfigSchema, forestDescriptor } from './forest-descriptor.js';
export {
  type BatchedRunOptions,
  type ForestLogs,
  type ForestResult,
  ForestSwarm,
  type ForestSwarmOptions,
} from './forest-swarm.js';
export { genericWords } from './generic-words.js';
export type { AgentLogInput, AgentLogOutput, ForestLogger, TreeLog } from './logs.js';
export { referenceTexts } from './reference-texts.js';
export type { RouteCandidate, RouteDecision, RouteRule, RoutingStrategy } from './route-decision.js';
export { stem } from './stem.js';
export { type AgentDistance, type FindRelevantAgentOptions, Tree, type TreeOptions } from './tree.js';
export {
  DEFAULT_KEYWORD_WEIGHT,
  DEFAULT_THRESHOLD,
  TreeAgent,
  type TreeAgentOptions,
  type TreeAgentResult,
  type TreeAgentRunOptions,
} from './tree-agent.js';
