// The part of an `@anthropic-ai/sdk` client that swarm calls, typed by shape rather than by the
// SDK's class (see openai-client-shape.ts): params are what swarm sends; responses list only the
// fields swarm reads, each checked where it is read.

/** The per-request options swarm passes: the attempt's signal, and the timeout and no retries when the client lacks them. */
export interface AnthropicRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
}

/** A block of user content as swarm sends it: text, an image, or a document. */
export type AnthropicInputBlockParam =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source:
        | {
            type: 'base64';
            media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
            data: string;
          }
        | { type: 'url'; url: string };
    }
  | {
      type: 'document';
      source:
        | { type: 'base64'; media_type: 'application/pdf'; data: string }
        | { type: 'text'; media_type: 'text/plain'; data: string };
      title?: string;
    };

/** A content block of a message as swarm sends it. */
export type AnthropicContentBlockParam =
  | AnthropicInputBlockParam
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicInputBlockParam[] };

/**
 * Extended thinking of a request: on with a token budget, adaptive (the model decides), only
 * between tool calls, or off. `display: 'omitted'` returns signed blocks with no readable text.
 */
export type AnthropicThinkingParam =
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' | null }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' | null }
  | { type: 'between_tools' }
  | { type: 'disabled' };

/** The Messages request swarm sends (`stream` unset). */
export interface AnthropicMessageParams {
  model: string;
  max_tokens: number;
  messages: { role: 'user' | 'assistant'; content: AnthropicContentBlockParam[] }[];
  system?: string;
  tools?: { name: string; description: string; input_schema: { type: 'object'; [key: string]: unknown } }[];
  tool_choice?: { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };
  /** Extended thinking, as `anthropicModel`'s `thinking` option gives it (sent as is). */
  thinking?: AnthropicThinkingParam;
  stream?: false;
}

/** The streaming request. */
export interface AnthropicMessageStreamParams extends Omit<AnthropicMessageParams, 'stream'> {
  stream: true;
}

/** Token counts as the API reports them (cache reads and writes apart from `input_tokens`). */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * A content block of a response, as far as swarm reads it: text, tool calls, `thinking` (with its
 * `signature`) and `redacted_thinking` (its encrypted `data`); other kinds are skipped.
 */
export interface AnthropicContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  thinking?: string;
  signature?: string;
  data?: string;
}

/** Why a message was refused (`stop_reason: "refusal"`), where the API says. */
export interface AnthropicStopDetails {
  type?: string;
  category?: string | null;
  explanation?: string | null;
}

/** A message, as far as swarm reads it. */
export interface AnthropicMessage {
  id?: string;
  model: string;
  content: AnthropicContentBlock[];
  stop_reason: string | null;
  stop_details?: AnthropicStopDetails | null;
  usage?: AnthropicUsage | null;
}

/** A streamed event, as far as swarm reads it. */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: { id?: string; model: string; usage?: AnthropicUsage | null } }
  | { type: 'content_block_start'; index: number; content_block: AnthropicContentBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: string; text?: string; partial_json?: string; thinking?: string; signature?: string };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: string | null; stop_details?: AnthropicStopDetails | null };
      usage?: AnthropicUsage | null;
    }
  | { type: 'message_stop' };

/**
 * What `anthropicModel` calls on a client given as `client`: Messages, plain and streamed. An
 * `@anthropic-ai/sdk` 1.x client fits, or anything with this shape.
 */
export interface AnthropicMessagesClient {
  messages: {
    create(params: AnthropicMessageParams, options?: AnthropicRequestOptions): Promise<AnthropicMessage>;
    create(
      params: AnthropicMessageStreamParams,
      options?: AnthropicRequestOptions,
    ): Promise<AsyncIterable<AnthropicStreamEvent>>;
  };
  /** The client's own request timeout; when it is the attempt timeout, requests need not repeat it. */
  readonly timeout?: number;
  /** The client's own retries; when 0, requests need not turn them off. */
  readonly maxRetries?: number;
}
