export {
  Agent,
  type AgentOptions,
  type AgentResult,
  type AgentRunOptions,
  type ToolCallRecord,
} from './agent.js';
export type { ApprovalDecision, Approvals, PendingApproval } from './approval.js';
export { type AsToolOptions, asTool } from './as-tool.js';
export { writeFileAtomic } from './atomic-write.js';
export { mapConcurrent, mapSettled } from './concurrency.js';
export { configuredModel, configureModelHint } from './configured-model.js';
export { messageText, taskMessage, validateContentParts } from './content-parts.js';
export { Conversation, type ConversationEntry, type OutputType, outputTypes } from './conversation.js';
export { type CostPreview, previewRun } from './cost-preview.js';
export { EmptyAnswerError, nonEmptyAnswer } from './empty-answer.js';
export {
  AbortError,
  BudgetExceededError,
  ConfigError,
  errorMessage,
  GuardrailTripwireError,
  isAbort,
  isPause,
  isTripwire,
  MaxTurnsExceededError,
  ModelError,
  NoRouteError,
  ApprovalConflictError,
  describeHolder,
  JournalWriteError,
  type LeaseHolder,
  RunLockedError,
  RunPausedError,
  type RunTotals,
  SessionConflictError,
  StructuredOutputError,
  SwarmError,
  type SwarmErrorCode,
  ToolError,
  throwIfAborted,
} from './errors.js';
export type { CoreEventType, EventInput, SwarmEvent } from './events.js';
export { type FileJournalOptions, fileJournal } from './file-journal.js';
export { type GenerateObjectOptions, type GenerateObjectResult, generateObject } from './generate-object.js';
export type {
  Guardrail,
  GuardrailContext,
  GuardrailLike,
  GuardrailOptions,
  GuardrailResult,
  GuardrailRun,
  Guardrails,
} from './guardrail.js';
export { validateGuardrails } from './guardrail.js';
export { fnv1a } from './hash.js';
export { type HeadSplit, type RoleRef, roleRefSchema, splitHead } from './head-role.js';
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
} from './journal.js';
export { Limiter, type LimiterOptions } from './limiter.js';
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
} from './member.js';
export { nodeBuiltin, optionalNodeBuiltin } from './node-builtin.js';
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
} from './option-checks.js';
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
export { checkedUsage, estimateUsage } from './providers/usage-estimate.js';
export { randomUUID } from './random-uuid.js';
export { REDACTED, redactSecrets, registerSecret } from './redact-secrets.js';
export { type ProviderFactory, registerProvider, resolveModel } from './resolve-model.js';
export { type Budget, RunContext, type RunContextOptions, type RunOptions } from './run-context.js';
export { runRandom } from './run-random.js';
export { type BudgetReason, interruptionFields, isRunStop, settledStop } from './run-stop.js';
export { type RunStream, runStream } from './run-stream.js';
export {
  type FormatOrSchema,
  formatOrSchema,
  outputToolName,
  parseJsonAnswer,
  validateOutputType,
} from './structured-output.js';
export {
  describeZodError,
  type NeedsApproval,
  type Tool,
  type ToolContext,
  type ToolOptions,
  toJsonSchema,
  tool,
  toolDefinition,
} from './tool.js';
export {
  BaseTopology,
  type Topology,
  type TopologyDescriptor,
  type TopologyResult,
  type WorstCase,
} from './topology.js';
export {
  budgetStop,
  finishedPause,
  openTopologyRun,
  runTopology,
  runTotals,
  type TopologyOutcome,
  type TopologyRun,
} from './topology-run.js';
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
  ResponseFormat,
  Role,
  Settled,
  TextPart,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './types.js';
export { addUsage, emptyUsage, sumUsage } from './usage.js';
