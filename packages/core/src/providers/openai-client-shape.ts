// The part of an `openai` SDK client that swarm calls, typed by shape rather than by the SDK's
// class: a client of another major (6 or 7), another copy of the SDK or a wrapper fits as long as
// it has these methods. Params are what swarm sends; responses list only the fields swarm reads.

/** The per-request options swarm passes: the attempt's signal, and the timeout and no retries when the client lacks them. */
export interface OpenAIRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
}

/** A part of a user message's content as swarm sends it: text, an image, or a file (a PDF). */
export type OpenAIChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A chat message as swarm sends it. */
export type OpenAIChatMessageParam =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIChatContentPart[]; name?: string }
  | {
      role: 'assistant';
      content: string | null;
      /** The turn's reasoning, sent back where the server wants it (DeepSeek). */
      reasoning_content?: string;
      /** The same, for servers that name the field `reasoning`. */
      reasoning?: string;
      tool_calls?: {
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function tool as swarm sends it. */
export interface OpenAIChatToolParam {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The Chat Completions request swarm sends (`stream` unset). */
export interface OpenAIChatParams {
  model: string;
  messages: OpenAIChatMessageParam[];
  tools?: OpenAIChatToolParam[];
  tool_choice?: 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };
  temperature?: number;
  max_completion_tokens?: number;
  max_tokens?: number;
  response_format?: {
    type: 'json_schema';
    json_schema: { name: string; schema: Record<string, unknown>; strict: boolean };
  };
  stream?: false;
}

/** The streaming request: the same, with the usage asked for in the last chunk. */
export interface OpenAIChatStreamParams extends Omit<OpenAIChatParams, 'stream'> {
  stream: true;
  stream_options: { include_usage: boolean };
}

/** Token counts as the API reports them. */
export interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** A completion, as far as swarm reads it. A tool call of another type than `function` is skipped. */
export interface OpenAIChatCompletion {
  id?: string;
  model: string;
  choices: {
    message: {
      /** A string, or (Mistral's thinking models) an array of parts. */
      content: string | null | unknown[];
      /** The model's refusal, in place of content (OpenAI). */
      refusal?: string | null;
      /** Reasoning text: DeepSeek, xAI, vLLM. */
      reasoning_content?: string | null;
      /** Reasoning text: Groq, OpenRouter, newer vLLM. */
      reasoning?: string | null;
      /** Absent on Mistral's calls. */
      tool_calls?:
        | { id: string; type?: string | null; function?: { name: string; arguments: string } }[]
        | null;
    };
    finish_reason: string | null;
  }[];
  usage?: OpenAIUsage | null;
}

/** A streamed chunk, as far as swarm reads it. */
export interface OpenAIChatChunk {
  id?: string;
  model?: string;
  choices: {
    delta?: {
      /** A string, or (Mistral's thinking models) an array of parts. */
      content?: string | null | unknown[];
      /** A piece of the model's refusal (OpenAI). */
      refusal?: string | null;
      /** A piece of reasoning text: DeepSeek, xAI, vLLM. */
      reasoning_content?: string | null;
      /** A piece of reasoning text: Groq, OpenRouter, newer vLLM. */
      reasoning?: string | null;
      tool_calls?: {
        /** Absent on some servers' parallel calls. */
        index?: number;
        id?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
    finish_reason: string | null;
  }[];
  usage?: OpenAIUsage | null;
}

/**
 * What `openaiModel` calls on a client given as `client`: Chat Completions, plain and streamed.
 * An `openai` 6 or 7 client fits, or anything with this shape.
 */
export interface OpenAIChatClient {
  chat: {
    completions: {
      create(params: OpenAIChatParams, options?: OpenAIRequestOptions): Promise<OpenAIChatCompletion>;
      create(
        params: OpenAIChatStreamParams,
        options?: OpenAIRequestOptions,
      ): Promise<AsyncIterable<OpenAIChatChunk>>;
    };
  };
  /** The client's own request timeout; when it is the attempt timeout, requests need not repeat it. */
  readonly timeout?: number;
  /** The client's own retries; when 0, requests need not turn them off. */
  readonly maxRetries?: number;
}

/** The embeddings request swarm sends. */
export interface OpenAIEmbeddingParams {
  model: string;
  input: string[];
  encoding_format: 'float';
  dimensions?: number;
}

/** An embeddings response, as far as swarm reads it. */
export interface OpenAIEmbeddingResponse {
  data: { index: number; embedding: number[] }[];
}

/**
 * What `openaiEmbedder` (`@swarm/embeddings`) calls on a client given as `client`: an `openai` 6
 * or 7 client fits, or anything with this shape.
 */
export interface OpenAIEmbeddingsClient {
  embeddings: {
    create(params: OpenAIEmbeddingParams, options?: OpenAIRequestOptions): Promise<OpenAIEmbeddingResponse>;
  };
  readonly timeout?: number;
  readonly maxRetries?: number;
}
