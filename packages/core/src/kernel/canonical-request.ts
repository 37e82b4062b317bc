import type {
  ContentPart,
  Message,
  ModelRequest,
  ModelResponse,
  TextPart,
  ToolCall,
} from '../contracts/model.js';
import { murmur128Bytes } from './hash.js';

/**
 * A content part as journals and cassettes keep it: text and image URLs as they are; bytes (given
 * as data, base64 or a data URL) as their media type and content hash, never inlined.
 */
export type CanonicalPart =
  | TextPart
  | { type: 'image'; url: string }
  | { type: 'image' | 'file'; mediaType: string; filename?: string; sha: string };

/** A message as journals and cassettes keep it. */
export type CanonicalMessage = Omit<Message, 'content'> & { content: string | CanonicalPart[] };

/** A request in the form a model answers from: what was asked, never the signal or anything a provider adds. */
export type CanonicalRequest = Omit<ModelRequest, 'signal' | 'messages'> & { messages: CanonicalMessage[] };

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
  const { text, toolCalls, usage, finishReason, modelId, responseId, responseModel, reasoning } = response;
  return plain({
    text,
    toolCalls: toolCalls.map(cassetteToolCall),
    usage,
    finishReason,
    modelId,
    ...(responseId !== undefined && { responseId }),
    ...(responseModel !== undefined && { responseModel }),
    ...(reasoning !== undefined && { reasoning }),
  });
}

function cassetteMessage({ role, content, name, toolCalls, toolCallId }: Message): CanonicalMessage {
  return {
    role,
    content: typeof content === 'string' ? content : content.map(canonicalPart),
    name,
    toolCalls: toolCalls?.map(cassetteToolCall),
    toolCallId,
  };
}

// A part's canonical form, made once per part object: a run sends the same attachment in many calls.
const canonicalParts = new WeakMap<ContentPart, CanonicalPart>();

function canonicalPart(part: ContentPart): CanonicalPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const known = canonicalParts.get(part);
  if (known !== undefined) return known;
  let made: CanonicalPart;
  if (part.type === 'image' && 'url' in part) {
    const inline = /^data:([^;,]+);base64,/.exec(part.url);
    made =
      inline === null
        ? { type: 'image', url: part.url }
        : { type: 'image', mediaType: inline[1]!, sha: contentHash(part.url.slice(inline[0].length)) };
  } else {
    made = { type: part.type, mediaType: part.mediaType, sha: contentHash(part.data) };
    if (part.type === 'file' && part.filename !== undefined) made.filename = part.filename;
  }
  canonicalParts.set(part, made);
  return made;
}

/**
 * The content hash of part data: MurmurHash3 128 of its bytes (base64 decoded first), so the same
 * image given as bytes, as base64 or as a data URL has one hash.
 */
export function contentHash(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? bytesOfBase64(data) : data;
  return murmur128Bytes(bytes, 0)
    .map((word) => word.toString(16).padStart(8, '0'))
    .join('');
}

function bytesOfBase64(text: string): Uint8Array {
  const buffer = (globalThis as { Buffer?: { from(t: string, e: 'base64'): Uint8Array } }).Buffer;
  if (buffer !== undefined) return buffer.from(text, 'base64');
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
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
