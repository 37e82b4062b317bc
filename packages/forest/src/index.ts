export { cosineSimilarity } from '@swarm/embeddings';
export { type ExtractKeywordsOptions, extractKeywords } from './extract-keywords.js';
export { type ForestDescriptorConfig, forestDescriptor } from './forest-descriptor.js';
export {
  type BatchedRunOptions,
  type ForestLogs,
  type ForestResult,
  ForestSwarm,
  type ForestSwarmOptions,
} from './forest-swarm.js';
export type { AgentLogInput, AgentLogOutput, ForestLogger, TreeLog } from './logs.js';
export type { RouteCandidate, RouteDecision, RoutingStrategy } from './route-decision.js';
export { type AgentDistance, type FindRelevantAgentOptions, Tree, type TreeOptions } from './tree.js';
export {
  DEFAULT_THRESHOLD,
  TreeAgent,
  type TreeAgentOptions,
  type TreeAgentResult,
  type TreeAgentRunOptions,
} from './tree-agent.js';
