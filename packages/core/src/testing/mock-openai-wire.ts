// The OpenAI Chat Completions wire format of the mock provider server: JSON and SSE.
import type { ServerResponse } from 'node:http';
import type { FinishReason, Usage } from '../contracts/model.js';
import { halves, pieces, type ResolvedReply, writeEvents } from './mock-wire.js';

const openaiFinishReasons: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  error: 'error',
  other: 'other',
};

function openaiUsage(usage: Usage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** A whole Chat Completions response for a resolved reply. */
export function openaiCompletion(reply: ResolvedReply, id: number) {
  const toolCalls = reply.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.json },
  }));
  return {
    id: `chatcmpl-mock-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: (reply.text === '' && toolCalls.length > 0) || reply.refusal ? null : reply.text,
          refusal: reply.refusal ? (reply.refusal.explanation ?? '') : null,
          ...(reply.reasoning && { [reply.reasoning.field]: reply.reasoning.text }),
          ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: openaiFinishReasons[reply.finishReason],
      },
    ],
    ...(reply.reportUsage && { usage: openaiUsage(reply.usage) }),
  };
}

/** Streams a resolved reply as Chat Completions chunks, usage last, then `[DONE]`. */
export async function sendOpenAIStream(
  res: ServerResponse,
  reply: ResolvedReply,
  body: Record<string, unknown>,
  id: number,
  delayMs: number,
  gone: AbortSignal,
  cutAfter?: number,
): Promise<void> {
  const base = {
    id: `chatcmpl-mock-${id}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;

  const events = [chunk({ role: 'assistant', content: '' })];
  if (reply.reasoning) {
    for (const piece of pieces(reply.reasoning.text)) events.push(chunk({ [reply.reasoning.field]: piece }));
  }
  if (reply.refusal) {
    for (const piece of pieces(reply.refusal.explanation ?? '')) events.push(chunk({ refusal: piece }));
  }
  for (const piece of pieces(reply.text)) events.push(chunk({ content: piece }));
  for (const [index, call] of reply.toolCalls.entries()) {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const part of halves(call.json))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  events.push(chunk({}, openaiFinishReasons[reply.finishReason]));
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  if (streamOptions?.include_usage === true && reply.reportUsage) {
    events.push(`data: ${JSON.stringify({ ...base, choices: [], usage: openaiUsage(reply.usage) })}\n\n`);
  }
  events.push('data: [DONE]\n\n');
  await writeEvents(res, events, delayMs, gone, cutAfter);
}
