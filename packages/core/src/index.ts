export {
  Agent,
  type AgentOptions,
  type AgentResult,
  type AgentRunOptions,
  type ToolCallRecord,
} from './agent/agent.js';
export { type CostPreview, previewRun } from './composition/cost-preview.js';
export { type HeadSplit, type RoleRef, roleRefSchema, splitHead } from './composition/head-role.js';
export {
  isMember,
  isTopology,
  type Member,
  type MemberResult,
  type MemberRunOptions,
  memberName,
  memberTurn,
  runMember,
  turnsAsText,
  validateMembers,
} from './composition/member.js';
export {
  BaseTopology,
  type Topology,
  type TopologyDescriptor,
  type TopologyResult,
  type WorstCase,
} from './composition/topology.js';
export {
  budgetStop,
  finishedPause,
  openTopologyRun,
  runTopology,
  runTopologyBatch,
  runTotals,
  type TopologyBatchOptions,
  type TopologyOutcome,
  type TopologyRun,
  type TopologyRunHooks,
} from './composition/topology-run.js';
export type { CoreEventType, EventInput, SwarmEvent } from './contracts/events.js';
export type {
  ContentPart,
  FilePart,
  FinishReason,
  ImagePart,
  JsonSchema,
  Message,
  Model,
  ModelLike,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  Reasoning,
  ReasoningBlock,
  ResponseFormat,
  Role,
  Settled,
  TextPart,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './contracts/model.js';
export type { GuardrailAgent, RunHandle, RunLimiter, Runnable } from './contracts/run.js';
export type { ApprovalDecision, Approvals, PendingApproval } from './kernel/approval.js';
export { writeFileAtomic } from './kernel/atomic-write.js';
export { mapConcurrent, mapSettled } from './kernel/concurrency.js';
export { messageText, taskMessage, validateContentParts } from './kernel/content-parts.js';
export { Conversation, type ConversationEntry, type OutputType, outputTypes } from './kernel/conversation.js';
export { EmptyAnswerError, nonEmptyAnswer } from './kernel/empty-answer.js';
export {
  AbortError,
  ApprovalConflictError,
  BudgetExceededError,
  ConfigError,
  describeHolder,
  errorMessage,
  GuardrailTripwireError,
  isAbort,
  isPause,
  isTripwire,
  JournalWriteError,
  type LeaseHolder,
  MaxTurnsExceededError,
  ModelError,
  NoRouteError,
  RefusalError,
  RunLockedError,
  RunPausedError,
  type RunTotals,
  SessionConflictError,
  StructuredOutputError,
  SwarmError,
  type SwarmErrorCode,
  ToolError,
  throwIfAborted,
} from './kernel/errors.js';
export { type FileJournalOptions, fileJournal } from './kernel/file-journal.js';
export type {
  Guardrail,
  GuardrailContext,
  GuardrailLike,
  GuardrailOptions,
  GuardrailResult,
  GuardrailRun,
  Guardrails,
} from './kernel/guardrail.js';
export { validateGuardrails } from './kernel/guardrail.js';
export { fnv1a } from './kernel/hash.js';
export {
  type ApprovalEntry,
  checkedEntry,
  checkedLine,
  type DecisionEntry,
  type Journal,
  type JournalEntry,
  type JournalLease,
  journaledDecisions,
  type ModelCallEntry,
  memoryJournal,
  parseJournalEntry,
  staleLeaseMessage,
  type ToolCallEntry,
  type ToolStartEntry,
  validateRunId,
  waitingApprovals,
} from './kernel/journal.js';
export { Limiter, type LimiterOptions } from './kernel/limiter.js';
export { nodeBuiltin, optionalNodeBuiltin } from './kernel/node-builtin.js';
export {
  booleanOption,
  concurrencyOption,
  integerOption,
  isTimerMs,
  MAX_TIMER_MS,
  numberOption,
  optionalIntegerOption,
  outputTypeOption,
  timeoutOption,
} from './kernel/option-checks.js';
export { randomUUID } from './kernel/random-uuid.js';
export { REDACTED, redactSecrets, registerSecret } from './kernel/redact-secrets.js';
export { type Budget, RunContext, type RunContextOptions, type RunOptions } from './kernel/run-context.js';
export { runRandom } from './kernel/run-random.js';
export { type BudgetReason, interruptionFields, isRunStop, settledStop } from './kernel/run-stop.js';
export { type RunStream, runStream } from './kernel/run-stream.js';
export { addUsage, emptyUsage, sumUsage } from './kernel/usage.js';
export { type AsToolOptions, asTool } from './primitives/as-tool.js';
export { configuredModel, configureModelHint } from './primitives/configured-model.js';
export {
  type GenerateObjectOptions,
  type GenerateObjectResult,
  generateObject,
} from './primitives/generate-object.js';
export { type ProviderFactory, registerProvider, resolveModel } from './primitives/resolve-model.js';
export {
  type FormatOrSchema,
  formatOrSchema,
  outputToolName,
  parseJsonAnswer,
  validateOutputType,
} from './primitives/structured-output.js';
export {
  describeZodError,
  type NeedsApproval,
  type Tool,
  type ToolContext,
  type ToolOptions,
  toJsonSchema,
  tool,
  toolDefinition,
} from './primitives/tool.js';
export { type AnthropicModelOptions, anthropicModel } from './providers/anthropic.js';
export type {
  AnthropicContentBlock,
  AnthropicContentBlockParam,
  AnthropicMessage,
  AnthropicMessageParams,
  AnthropicMessageStreamParams,
  AnthropicMessagesClient,
  AnthropicRequestOptions,
  AnthropicStreamEvent,
  AnthropicThinkingParam,
  AnthropicUsage,
} from './providers/anthropic-client-shape.js';
export { type OpenAIModelOptions, openaiModel } from './providers/openai.js';
export {
  lazyOpenAIClient,
  type OpenAICallSetup,
  type OpenAIConnectionOptions,
  openaiCallSetup,
} from './providers/openai-client.js';
export type {
  OpenAIChatChunk,
  OpenAIChatClient,
  OpenAIChatCompletion,
  OpenAIChatMessageParam,
  OpenAIChatParams,
  OpenAIChatStreamParams,
  OpenAIChatToolParam,
  OpenAIEmbeddingParams,
  OpenAIEmbeddingResponse,
  OpenAIEmbeddingsClient,
  OpenAIRequestOptions,
  OpenAIUsage,
} from './providers/openai-client-shape.js';
export {
  type OpenAICompatiblePreset,
  openaiCompatibleModel,
  openaiCompatiblePresets,
} from './providers/openai-compatible.js';
// Building a provider (an embedder, another API) with swarm's retry policy: see `callWithRetries`.
export {
  type Attempt,
  type CallPolicy,
  type ClassifyError,
  callPolicy,
  callWithRetries,
  type ProviderCallOptions,
  streamWithRetries,
} from './providers/provider-call.js';
export { raceAbort, type SdkErrorClasses, toSwarmError } from './providers/provider-error.js';
export { validateProviderOptions } from './providers/provider-settings.js';
export { assistantTurn, type RefusalHandling } from './providers/reasoning.js';
export { checkedUsage, estimateUsage } from './providers/usage-estimate.js';
