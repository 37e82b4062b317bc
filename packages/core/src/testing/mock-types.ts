import type { FinishReason, Usage } from '../contracts/model.js';

/**
 * A tool call the mock model makes; `arguments` may be raw text to simulate broken JSON (sent as
 * is: as OpenAI's argument text, Anthropic's streamed input deltas, or a non-object `tool_use.input`).
 */
export interface MockToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  id?: string;
}

/** A provider-neutral answer, rendered in the wire format of whichever API was called. */
export interface MockReply {
  text?: string;
  toolCalls?: MockToolCall[];
  /** Reported usage; unset fields are estimated from the request and the answer. */
  usage?: Partial<Usage>;
  /** Defaults to `'tool-calls'` when there are tool calls, else `'stop'`. */
  finishReason?: FinishReason;
  /** False to send no token usage at all, as some OpenAI-compatible servers do. */
  reportUsage?: boolean;
  /** Delay before this answer starts, in milliseconds (added to the server's `latencyMs`). */
  delayMs?: number;
  /** Gap between this answer's streamed events (overrides the server's `chunkDelayMs`): a slow stream. */
  chunkDelayMs?: number;
  /**
   * Reasoning before the answer: an Anthropic `thinking` block (signed with `signature`, default
   * `sig-<n>`), or OpenAI-compatible `reasoning_content` (or the `field` named).
   */
  reasoning?: { text: string; signature?: string; field?: 'reasoning_content' | 'reasoning' };
  /**
   * A refusal: OpenAI's `refusal` text (`explanation`), or Anthropic's `stop_reason: "refusal"`
   * with `stop_details` (`category`, `explanation`).
   */
  refusal?: { explanation?: string; category?: string };
}

/** A failure the mock server injects instead of answering. */
export type MockFault =
  /** 429 with `Retry-After` and `retry-after-ms` headers (default: 1 second). */
  | { fault: 'rate-limit'; retryAfterSeconds?: number; retryAfterMs?: number }
  /**
   * 500 (or `status`); `retryAfterMs` adds a `retry-after-ms` header so retries do not wait their
   * default backoff; `message` is the error body's message (a 401 that echoes the key, say).
   */
  | { fault: 'server-error'; status?: number; retryAfterMs?: number; message?: string }
  /** Never answers, until the client disconnects or the server closes. */
  | { fault: 'hang' }
  /** 200 with a body that is not valid JSON (or a broken SSE event when streaming). */
  | { fault: 'malformed' }
  /**
   * Resets the connection: `'before-headers'` at once; `'mid-body'` after the 200 headers and half
   * of the JSON body, or after the first `afterEvents` events of a stream (default 1: the opening
   * event, before any text). `reply` is the answer that gets cut (default: a short text).
   */
  | { fault: 'reset'; at: 'before-headers' | 'mid-body'; afterEvents?: number; reply?: MockReply }
  /** 200 with no answer in it: no `choices` (OpenAI) or no `content` (Anthropic), or an empty stream. */
  | { fault: 'empty' }
  /**
   * 200 headers and the start of the body (or of the stream), then nothing, until the client
   * disconnects or the server closes: a body that stalls after its headers.
   */
  | { fault: 'stall' };

/** One scripted step: an answer or a fault. */
export type MockStep = MockReply | MockFault;

/** Which API a request was addressed to. */
export type MockApi = 'openai' | 'anthropic' | 'embeddings';

/** A request the mock server received, as recorded in `requests` and passed to `handler`. */
export interface MockRequest {
  api: MockApi;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  stream: boolean;
}

/** Decides the step for a request; for embeddings, only a fault changes the answer. */
export type MockHandler = (request: MockRequest) => MockStep | undefined | Promise<MockStep | undefined>;

/** Options of `mockProviderServer`. */
export interface MockProviderServerOptions {
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Delay between streamed events, in milliseconds, to test cancellation mid-stream. */
  chunkDelayMs?: number;
  /** Answers requests once the script (`enqueue`) is empty. */
  handler?: MockHandler;
  /** Length of hashed embedding vectors when the request sets no `dimensions` (default 64). */
  embeddingDimensions?: number;
  /** Computes embedding vectors instead of the default bag-of-words hash. */
  embed?: (texts: string[]) => number[][] | Promise<number[][]>;
}

/** A running mock of the OpenAI and Anthropic HTTP APIs on 127.0.0.1, for tests and benchmarks. */
export interface MockProviderServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Base URL for the `openai` SDK and OpenAI-compatible clients (`url + '/v1'`). */
  readonly openaiBaseURL: string;
  /** Base URL for `@anthropic-ai/sdk` (`url`). */
  readonly anthropicBaseURL: string;
  /** Every API request received, faulted ones included, in arrival order. */
  readonly requests: MockRequest[];
  /** Appends steps to the script; chat and messages requests consume them in order (embeddings do not). */
  enqueue(...steps: MockStep[]): void;
  /** How many scripted steps are still waiting. */
  readonly remaining: number;
  /**
   * Responses whose connection is still open: a request being answered, or one left hanging or
   * stalled that the client has not cut. 0 once every client has let go of what it abandoned.
   */
  readonly openResponses: number;
  /** Stops the server and destroys open connections, hung ones included. */
  close(): Promise<void>;
}
