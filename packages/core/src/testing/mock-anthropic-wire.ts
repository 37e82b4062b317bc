// The Anthropic Messages wire format of the mock provider server: JSON and SSE.
import type { ServerResponse } from 'node:http';
import type { FinishReason, Usage } from '../contracts/model.js';
import { halves, pieces, type ResolvedReply, writeEvents } from './mock-wire.js';

const anthropicStopReasons: Record<FinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: 'pause_turn',
  other: 'pause_turn',
};

/** Anthropic reports cache reads apart from `input_tokens`; neutral usage counts them inside. */
// A count that is not a count (a test sending a hostile value) goes on the wire as it was given.
function anthropicUsage(usage: Usage) {
  const numbers =
    typeof usage.inputTokens === 'number' && usage.inputTokens >= 0 && typeof usage.cachedTokens === 'number';
  return {
    input_tokens: numbers ? Math.max(0, usage.inputTokens - usage.cachedTokens) : usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedTokens,
    output_tokens_details: usage.reasoningTokens !== 0 ? { thinking_tokens: usage.reasoningTokens } : null,
  };
}

function anthropicContent(reply: ResolvedReply) {
  const content: Record<string, unknown>[] = [];
  if (reply.reasoning) {
    content.push({ type: 'thinking', thinking: reply.reasoning.text, signature: reply.reasoning.signature });
  }
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    // Raw-text arguments go out as the input itself: a `tool_use.input` that is not an object.
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  }
  return content;
}

function stopDetails(refusal: NonNullable<ResolvedReply['refusal']>) {
  return { type: 'refusal', category: refusal.category ?? null, explanation: refusal.explanation ?? null };
}

/** A whole Messages response for a resolved reply. */
export function anthropicMessage(reply: ResolvedReply, id: number) {
  return {
    id: `msg_mock_${id}`,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: anthropicContent(reply),
    stop_reason: reply.refusal ? 'refusal' : anthropicStopReasons[reply.finishReason],
    stop_sequence: null,
    ...(reply.refusal && { stop_details: stopDetails(reply.refusal) }),
    ...(reply.reportUsage && { usage: anthropicUsage(reply.usage) }),
  };
}

/** Streams a resolved reply as the Messages event sequence, from message_start to message_stop. */
export async function sendAnthropicStream(
  res: ServerResponse,
  reply: ResolvedReply,
  id: number,
  delayMs: number,
  gone: AbortSignal,
  cutAfter?: number,
): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = anthropicUsage(reply.usage);
  const events = [
    event('message_start', {
      message: {
        id: `msg_mock_${id}`,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(reply.reportUsage && { usage: { ...usage, output_tokens: 1, output_tokens_details: null } }),
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (reply.reasoning) {
    events.push(
      event('content_block_start', {
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
    );
    for (const piece of pieces(reply.reasoning.text)) {
      events.push(
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }),
      );
    }
    events.push(
      event('content_block_delta', {
        index,
        delta: { type: 'signature_delta', signature: reply.reasoning.signature },
      }),
      event('content_block_stop', { index }),
    );
    index++;
  }
  if (reply.text) {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of pieces(reply.text)) {
      events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    }
    events.push(event('content_block_stop', { index }));
    index++;
  }
  for (const call of reply.toolCalls) {
    events.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const part of halves(call.json)) {
      events.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }),
      );
    }
    events.push(event('content_block_stop', { index }));
    index++;
  }
  events.push(
    event('message_delta', {
      delta: {
        stop_reason: reply.refusal ? 'refusal' : anthropicStopReasons[reply.finishReason],
        stop_sequence: null,
        ...(reply.refusal && { stop_details: stopDetails(reply.refusal) }),
      },
      ...(reply.reportUsage && {
        usage: { output_tokens: usage.output_tokens, output_tokens_details: usage.output_tokens_details },
      }),
    }),
    event('message_stop', {}),
  );
  await writeEvents(res, events, delayMs, gone, cutAfter);
}
