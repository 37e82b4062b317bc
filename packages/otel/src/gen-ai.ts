import type { FinishReason } from '@swarm/core';

/** The OpenTelemetry GenAI semantic-convention attribute names this package writes. */
export const GenAI = {
  operationName: 'gen_ai.operation.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
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

/**
 * The provider and the model of a swarm model id: `'openai:gpt-5.4'` is system `openai`, model
 * `gpt-5.4`; an id without a provider (a custom or scripted model) is system `_OTHER`.
 */
export function systemAndModel(id: unknown): { system: string; model: string } {
  const text = typeof id === 'string' ? id : 'unknown';
  const colon = text.indexOf(':');
  return colon > 0
    ? { system: text.slice(0, colon), model: text.slice(colon + 1) }
    : { system: '_OTHER', model: text };
}
