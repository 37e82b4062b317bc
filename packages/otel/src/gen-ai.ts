import type { FinishReason } from '@swarm/core';

/**
 * The OpenTelemetry GenAI semantic-convention attribute names this package writes (the current
 * conventions: `gen_ai.provider.name`, not the deprecated `gen_ai.system`).
 */
export const GenAI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/** The `gen_ai.operation.name` of each kind of span. */
export const operations = { model: 'chat', agent: 'invoke_agent', tool: 'execute_tool' } as const;

const finishReasons: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'error',
  other: 'other',
};

/** A finish reason as the conventions spell it (`'tool-calls'` is `'tool_calls'`). */
export function genAiFinishReason(reason: unknown): string {
  return typeof reason === 'string' ? (finishReasons[reason as FinishReason] ?? reason) : 'other';
}

// Model-string prefixes whose provider the conventions spell another way.
const providerNames: Record<string, string> = {
  google: 'gcp.gemini',
  mistral: 'mistral_ai',
  xai: 'x_ai',
};

/**
 * The provider and the model of a swarm model id: `'openai:gpt-5.4'` is provider `openai`, model
 * `gpt-5.4`, with the conventions' names where they differ from the prefix (`google` is
 * `gcp.gemini`); an id without a provider (a custom or scripted model) is provider `_OTHER`.
 */
export function providerAndModel(id: unknown): { provider: string; model: string } {
  const text = typeof id === 'string' ? id : 'unknown';
  const colon = text.indexOf(':');
  if (colon <= 0) return { provider: '_OTHER', model: text };
  const prefix = text.slice(0, colon);
  return { provider: providerNames[prefix] ?? prefix, model: text.slice(colon + 1) };
}
