import type { Message, ModelRequest, ModelResponse, ToolCall } from './types.js';

/** A request in the form a model answers from: what was asked, never the signal or anything a provider adds. */
export type CanonicalRequest = Omit<ModelRequest, 'signal'>;

/**
 * The request's fields a model answers from, copied field by field: a `signal`, headers, keys or
 * any other property someone attached to the object are never carried over.
 */
export function cassetteRequest(request: ModelRequest): CanonicalRequest {
  const { system, messages, tools, toolChoice, temperature, maxTokens, metadata } = request;
  return plain({
    system,
    messages: messages.map(cassetteMessage),
    tools: tools?.map(({ name, description, parameters }) => ({ name, description, parameters })),
    toolChoice: typeof toolChoice === 'object' ? { name: toolChoice.name } : toolChoice,
    temperature,
    maxTokens,
    metadata: metadata && { agent: metadata.agent, purpose: metadata.purpose },
  });
}

/** The response's own fields, copied field by field. */
export function cassetteResponse(response: ModelResponse): ModelResponse {
  const { text, toolCalls, usage, finishReason, modelId } = response;
  return plain({ text, toolCalls: toolCalls.map(cassetteToolCall), usage, finishReason, modelId });
}

function cassetteMessage({ role, content, name, toolCalls, toolCallId }: Message): Message {
  return { role, content, name, toolCalls: toolCalls?.map(cassetteToolCall), toolCallId };
}

function cassetteToolCall({ id, name, arguments: args, invalidArguments }: ToolCall): ToolCall {
  return { id, name, arguments: args, invalidArguments };
}

// A JSON round trip: drops undefined fields, so a recorded and a live request compare equal.
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** JSON with object keys sorted at every level: equal requests give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
