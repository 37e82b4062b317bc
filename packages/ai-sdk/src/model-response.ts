import type {
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import {
  checkedUsage,
  type FinishReason,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  type ToolCall,
  type Usage,
} from '@swarm/core';

/** The swarm response of a `doGenerate` result: its text parts joined, the calls swarm is to run. */
export function fromGenerateResult(
  result: LanguageModelV4GenerateResult,
  request: ModelRequest,
  modelId: string,
  provider: string,
): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of result.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call' && !part.providerExecuted) toolCalls.push(toToolCall(part));
  }
  return {
    text,
    toolCalls,
    usage: checkedUsage(toUsage(result.usage), request, text, toolCalls),
    finishReason: toFinishReason(result.finishReason, provider),
    modelId: result.response?.modelId || modelId,
  };
}

/**
 * A tool call swarm runs, from the AI SDK's (whose input is JSON text). Text that does not parse to
 * an object is kept as `invalidArguments`, so the agent can tell the model and let it try again.
 */
export function toToolCall(call: LanguageModelV4ToolCall): ToolCall {
  const { toolCallId: id, toolName: name, input } = call;
  if (input.trim() === '') return { id, name, arguments: {} };
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { id, name, arguments: parsed as Record<string, unknown> };
    }
  } catch {
    // Falls through: the raw text goes back as `invalidArguments`.
  }
  return { id, name, arguments: {}, invalidArguments: input };
}

/**
 * Swarm usage from the AI SDK's: input counts cache reads and writes (as `inputTokens.total` does),
 * `cachedTokens` the cache reads, `reasoningTokens` the reasoning part of the output. Undefined when
 * the provider reported no counts at all, or in a shape it cannot read (`{}`, plain numbers of an
 * older specification are read): `checkedUsage` then estimates them and flags the estimate, rather
 * than the call failing on what is only accounting.
 */
export function toUsage(usage: LanguageModelV4Usage | undefined | unknown): Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { inputTokens: input, outputTokens: output } = usage as Record<string, unknown>;
  const inputSide = side(input);
  const outputSide = side(output);
  const inputParts = [inputSide.noCache, inputSide.cacheRead, inputSide.cacheWrite];
  const outputParts = [outputSide.text, outputSide.reasoning];
  const inputTokens = inputSide.total ?? sumOf(inputParts);
  const outputTokens = outputSide.total ?? sumOf(outputParts);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return {
    inputTokens: inputTokens ?? 0,
    outputTokens: outputTokens ?? 0,
    cachedTokens: inputSide.cacheRead ?? 0,
    reasoningTokens: outputSide.reasoning ?? 0,
    totalTokens: (inputTokens ?? 0) + (outputTokens ?? 0),
  };
}

/** One side's counts, from the V4 object (`{ total, noCache, ... }`) or an older bare number. */
function side(
  value: unknown,
): Partial<Record<'total' | 'noCache' | 'cacheRead' | 'cacheWrite' | 'text' | 'reasoning', number>> {
  if (typeof value === 'number') return { total: value };
  if (typeof value !== 'object' || value === null) return {};
  const counts: Partial<Record<string, number>> = {};
  for (const [key, count] of Object.entries(value)) {
    // A value that is not a number is kept as NaN, so that checkedUsage estimates instead.
    if (count !== undefined && count !== null) counts[key] = typeof count === 'number' ? count : Number.NaN;
  }
  return counts;
}

function sumOf(parts: (number | undefined)[]): number | undefined {
  let sum: number | undefined;
  for (const part of parts) if (part !== undefined) sum = (sum ?? 0) + part;
  return sum;
}

/**
 * Swarm's finish reason for the AI SDK's unified one. `interrupted` (the provider's stream ended
 * without its finish signal) is a retryable ModelError, as a cut stream is for swarm's own providers.
 */
export function toFinishReason(reason: LanguageModelV4FinishReason, provider: string): FinishReason {
  switch (reason.unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'error':
    case 'other':
      return reason.unified;
    case 'interrupted':
      throw new ModelError(`${provider}: the answer was interrupted before it finished.`, {
        provider,
        retryable: true,
      });
    default:
      return 'other';
  }
}
