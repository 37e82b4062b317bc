import type { ModelRequest, ToolCall, Usage } from '../contracts/model.js';
import { messageText } from '../kernel/content-parts.js';

/** A rough token count: four characters a token, as the providers' own rules of thumb say. */
function tokensOf(characters: number): number {
  return Math.ceil(characters / 4);
}

/**
 * Usage for a response that reported none (some OpenAI-compatible servers, a stream without its
 * usage chunk): estimated from the request and the answer, and marked `estimated`, so a token
 * budget still counts the call instead of counting zero.
 */
export function estimateUsage(request: ModelRequest, text: string, toolCalls: readonly ToolCall[]): Usage {
  let input = request.system?.length ?? 0;
  for (const message of request.messages) {
    input += messageText(message).length;
    for (const call of message.toolCalls ?? [])
      input += call.name.length + JSON.stringify(call.arguments).length;
  }
  for (const tool of request.tools ?? []) {
    input += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  }
  let output = text.length;
  for (const call of toolCalls) output += call.name.length + JSON.stringify(call.arguments).length;
  const inputTokens = tokensOf(input);
  const outputTokens = tokensOf(output);
  return {
    inputTokens,
    outputTokens,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: inputTokens + outputTokens,
    estimated: true,
  };
}

const usageCounts = [
  'inputTokens',
  'outputTokens',
  'cachedTokens',
  'reasoningTokens',
  'totalTokens',
] as const;

/**
 * The usage a provider reported when every count is a finite non-negative number; otherwise (or
 * when it reported none) the estimate, flagged `estimated`. A response is outside data: a string or
 * markup in a usage field must never reach totals, budgets, traces or reports.
 */
export function checkedUsage(
  reported: Usage | undefined,
  request: ModelRequest,
  text: string,
  toolCalls: readonly ToolCall[],
): Usage {
  if (reported !== undefined && usageCounts.every((key) => isCount(reported[key]))) return reported;
  return estimateUsage(request, text, toolCalls);
}

/** A count as reported: absent is 0, a bad value is NaN so that whatever is computed from it fails `checkedUsage`. */
export function reportedCount(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return isCount(value) ? value : Number.NaN;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
