/** Who wrote a message: the system prompt, the user (or another agent), the assistant, or a tool. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A JSON Schema object, as sent to providers for tool parameters. */
export type JsonSchema = Record<string, unknown>;

/** A tool call made by the model; `arguments` is the parsed JSON object. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The raw argument text when the provider sent JSON that did not parse (arguments is then `{}`). */
  invalidArguments?: string;
}

/** Text as one part of a message's content, beside images and files. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * An image the model should see: by `url` (https, or a `data:` URL), or as `data` (bytes or
 * base64) with its `mediaType` (`'image/png'`).
 */
export type ImagePart =
  | { type: 'image'; url: string }
  | { type: 'image'; data: Uint8Array | string; mediaType: string };

/** A document (a PDF, plain text) the model should read: bytes or base64, its media type and name. */
export interface FilePart {
  type: 'file';
  data: Uint8Array | string;
  mediaType: string;
  filename?: string;
}

/** One part of a message's content: text, an image or a file. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** One typed turn of a conversation sent to a model. */
export interface Message {
  role: Role;
  /** Plain text, or parts (text, images, files) for a turn that is more than text. */
  content: string | ContentPart[];
  /** Who spoke, for `user` turns written by another agent. */
  name?: string;
  /** Tool calls an `assistant` turn made. */
  toolCalls?: ToolCall[];
  /** The call a `tool` turn answers. */
  toolCallId?: string;
  /**
   * The reasoning of an `assistant` turn, as its `ModelResponse.reasoning` gave it: kept so that the
   * next request sends it back in the form the provider requires (Anthropic's signed thinking
   * blocks first in the turn; DeepSeek's `reasoning_content`).
   */
  reasoning?: Reasoning;
}

/**
 * One block of a model's reasoning, in the order the provider gave it: readable `thinking` text
 * (with the provider's `signature`, an opaque value proving it came from the model), or a
 * `redacted` block whose `data` is encrypted and has no readable text. Sent back unchanged.
 */
export type ReasoningBlock =
  | { type: 'thinking'; text: string; signature?: string }
  | { type: 'redacted'; data: string };

/**
 * What a model thought before it answered, beside its answer.
 *
 * - `text`: all readable reasoning, joined (`''` when the provider gave only redacted blocks).
 * - `blocks`: the provider's reasoning blocks in order, with their signatures and encrypted data,
 *   where the provider wants them back verbatim (Anthropic thinking and redacted_thinking blocks).
 *   Unset for providers that send reasoning as plain text.
 * - `field`: for OpenAI-compatible servers, the message field the reasoning came in
 *   (`reasoning_content`: DeepSeek, xAI, vLLM; `reasoning`: Groq, OpenRouter, newer vLLM); where
 *   it is sent back, it goes back in the same field.
 *
 * Reasoning is content: it is journaled and recorded like the answer, but kept out of telemetry
 * unless content capture is on.
 */
export interface Reasoning {
  text: string;
  blocks?: ReasoningBlock[];
  field?: 'reasoning_content' | 'reasoning';
}

/** A tool as a model sees it: a name, what it is for, and its JSON Schema parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** How the model may use tools: freely, must call one, must not, or must call the named one. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** Everything one model call needs; providers translate it to their wire format. */
export interface ModelRequest {
  system?: string;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** For traces and test scripts: which agent asks, and for what. */
  metadata?: { agent?: string; purpose?: string };
  /**
   * The answer's text must be JSON matching this schema. Sent only to a model whose
   * `structuredOutput` is `'json-schema'` (others are given a forced final tool instead).
   */
  responseFormat?: ResponseFormat;
}

/** A JSON answer the provider itself holds to a schema (OpenAI `response_format: json_schema`). */
export interface ResponseFormat {
  type: 'json-schema';
  name: string;
  schema: JsonSchema;
  /** Strict: the provider guarantees the schema (every property required, no others). */
  strict: boolean;
}

/** Token usage of one or more calls, with cached input and reasoning output broken out. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  /** True when a provider reported no usage, or counts that are not finite non-negative numbers, and they are estimated from the text. */
  estimated?: boolean;
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** A model's whole answer to one request. */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: FinishReason;
  modelId: string;
  /** The provider's own id of this response (`chatcmpl-…`, `msg_…`), when it sent one. */
  responseId?: string;
  /**
   * The model that actually answered, as the provider reported it (it differs from the one asked
   * for behind routers and aliases); unset when the provider did not say.
   */
  responseModel?: string;
  /** The model's reasoning (thinking) before its answer, where the provider returned it. */
  reasoning?: Reasoning;
}

/**
 * A piece of a streamed answer; the stream always ends with `finish` carrying the whole response.
 * `restart`: the connection broke after some text, and the call is made again: drop the text
 * streamed so far, the answer streams again from its start.
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; delta: string }
  /** A piece of readable reasoning, streamed before (or between) the answer's text. */
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'restart' }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'finish'; response: ModelResponse };

/** The only thing that talks to an LLM. */
export interface Model {
  readonly id: string;
  /**
   * The provider's native structured output, if it has one: `'json-schema'` takes
   * `request.responseFormat`. Without it an Agent's `outputType` is asked for as a forced final tool.
   */
  readonly structuredOutput?: 'json-schema';
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/** A Model, or a string that `resolveModel` turns into one (`'openai:gpt-5.4'`, `'claude-opus-4-7'`). */
export type ModelLike = Model | string;

/** A settled outcome, as batch helpers return them, in input order. */
export type Settled<T> = { status: 'fulfilled'; value: T } | { status: 'rejected'; reason: unknown };
