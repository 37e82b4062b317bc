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
}

/**
 * A piece of a streamed answer; the stream always ends with `finish` carrying the whole response.
 * `restart`: the connection broke after some text, and the call is made again: drop the text
 * streamed so far, the answer streams again from its start.
 */
export type ModelStreamEvent =
  | { type: 'text-delta'; delta: string }
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
