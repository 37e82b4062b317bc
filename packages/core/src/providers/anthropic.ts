import type {
  FinishReason,
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ReasoningBlock,
  ToolCall,
  ToolChoice,
  Usage,
} from '../contracts/model.js';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import { registerSecret } from '../kernel/redact-secrets.js';
import type {
  AnthropicContentBlock,
  AnthropicContentBlockParam,
  AnthropicMessage,
  AnthropicMessageParams,
  AnthropicMessagesClient,
  AnthropicRequestOptions,
  AnthropicStopDetails,
  AnthropicThinkingParam,
  AnthropicUsage,
} from './anthropic-client-shape.js';
import { anthropicText, toAnthropicBlocks, toolResultContent } from './anthropic-content.js';
import {
  callPolicy,
  callWithRetriesFor,
  type ProviderCallOptions,
  restartEvent,
  streamWithRetries,
} from './provider-call.js';
import { raceAbort, sdkErrorClassesOf, toSwarmError } from './provider-error.js';
import { resolveProviderSettings, validateProviderOptions } from './provider-settings.js';
import { type RefusalHandling, reasoningOfBlocks, refusalError } from './reasoning.js';
import { toolCallFromInput, toolCallFromJson } from './tool-arguments.js';
import { checkedUsage, reportedCount } from './usage-estimate.js';

type AnthropicSdk = typeof import('@anthropic-ai/sdk');

let sdkModule: Promise<AnthropicSdk> | undefined;

/** Loads `@anthropic-ai/sdk` at the first Anthropic call, so importing `@swarm/core` does not. */
function loadAnthropicSdk(): Promise<AnthropicSdk> {
  sdkModule ??= import('@anthropic-ai/sdk').catch((error: unknown) => {
    sdkModule = undefined;
    throw error;
  });
  return sdkModule;
}

/** Options of `anthropicModel`, in the same style as `OpenAIModelOptions`. */
export interface AnthropicModelOptions extends ProviderCallOptions {
  /** The API key; defaults to the `apiKeyEnv` variable, read at the first call. */
  apiKey?: string;
  /** The endpoint; defaults to the `baseURLEnv` variable, then `defaultBaseURL`. */
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
  /** The provider name used in model ids and errors (default `'anthropic'`). */
  provider?: string;
  /** The environment variable holding the key (default `ANTHROPIC_API_KEY`). */
  apiKeyEnv?: string;
  /** The environment variable holding the endpoint (default `ANTHROPIC_BASE_URL`). */
  baseURLEnv?: string;
  /** The endpoint when neither `baseURL` nor the variable is set (default `https://api.anthropic.com`). */
  defaultBaseURL?: string;
  /** False for proxies that need no key: a missing key is then replaced by a placeholder. */
  requireApiKey?: boolean;
  /** `max_tokens` when the request sets none; Anthropic requires one (default 4096). */
  defaultMaxTokens?: number;
  /**
   * A ready client, used as is (key and endpoint options are then ignored): an
   * `@anthropic-ai/sdk` 1.x client, or anything with the shape of `AnthropicMessagesClient`.
   */
  client?: AnthropicMessagesClient;
  /**
   * Extended thinking, sent as the request's `thinking` (`{ type: 'enabled', budget_tokens: 2048 }`,
   * `{ type: 'adaptive' }`). The thinking blocks come back as `ModelResponse.reasoning` and are
   * sent back, signed, first in their assistant turn, as the API requires after a tool call.
   */
  thinking?: AnthropicThinkingParam;
  /**
   * A refused answer (`stop_reason: "refusal"`): `'error'` (default) throws a `RefusalError` with
   * the category and explanation of `stop_details`; `'answer'` returns it as the answer, with
   * `finishReason: 'content-filter'`.
   */
  refusals?: RefusalHandling;
}

/**
 * A Model over the Anthropic Messages API. `@anthropic-ai/sdk` is loaded and the client created at
 * the first call; retries, timeouts and waits follow `ProviderCallOptions` (the SDK's are off).
 * `request.temperature` is ignored: the API version SDK 1.x speaks rejects sampling parameters.
 */
export function anthropicModel(model: string, options: AnthropicModelOptions = {}): Model {
  validateProviderOptions('anthropicModel', model, options);
  const defaultMaxTokens = options.defaultMaxTokens ?? 4096;
  if (!(Number.isInteger(defaultMaxTokens) && defaultMaxTokens > 0)) {
    throw new ConfigError(
      `anthropicModel: defaultMaxTokens must be a positive integer, got ${defaultMaxTokens}.`,
    );
  }
  const provider = options.provider ?? 'anthropic';
  const policy = callPolicy(provider, options);
  const refusals = options.refusals ?? 'error';
  if (refusals !== 'error' && refusals !== 'answer') {
    throw new ConfigError(
      `anthropicModel: refusals must be 'error' or 'answer', got ${JSON.stringify(refusals)}.`,
    );
  }
  const thinking = options.thinking;
  let sdk: AnthropicSdk | undefined;
  let client = options.client;
  // A client the user made holds its key (every Stainless SDK client keeps `apiKey`).
  registerSecret((client as { apiKey?: unknown } | undefined)?.apiKey);
  const getClient = async (): Promise<AnthropicMessagesClient> => {
    const settings = client
      ? undefined
      : resolveProviderSettings({
          provider,
          apiKey: options.apiKey,
          apiKeyEnv: options.apiKeyEnv ?? 'ANTHROPIC_API_KEY',
          requireApiKey: options.requireApiKey ?? true,
          baseURL: options.baseURL,
          baseURLEnv: options.baseURLEnv ?? 'ANTHROPIC_BASE_URL',
          defaultBaseURL: options.defaultBaseURL ?? 'https://api.anthropic.com',
        });
    sdk ??= await loadAnthropicSdk();
    // The client created here has the attempt timeout and no retries of its own, so requests need
    // not repeat them (a per-request timeout costs each request an extra header).
    client ??= new sdk.default({
      ...settings,
      timeout,
      maxRetries: 0,
      ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
    });
    loaded = client;
    return client;
  };
  // The client once loaded: calls after the first need not wait for anything before their attempt.
  let loaded: AnthropicMessagesClient | undefined;

  const timeout = Math.ceil(policy.timeoutMs);
  const requestOptions = (
    anthropic: AnthropicMessagesClient,
    signal: AbortSignal,
  ): AnthropicRequestOptions =>
    anthropic.timeout === timeout && anthropic.maxRetries === 0
      ? { signal }
      : { signal, timeout, maxRetries: 0 };
  // A client the user brings throws its own SDK's errors (another release's classes, perhaps).
  const clientErrors = options.client === undefined ? undefined : sdkErrorClassesOf(options.client);
  const classify = (error: unknown) =>
    toSwarmError(error, { provider, sdk: clientErrors ?? sdk?.default, timeoutMs: policy.timeoutMs });
  // Made once per model, given each call's request: no closures per call (see openaiModel).
  const send = (signal: AbortSignal, _attempt: number, request: ModelRequest) =>
    loaded!.messages.create(
      toMessageParams(model, request, defaultMaxTokens, thinking),
      requestOptions(loaded!, signal),
    );
  const receive = (message: AnthropicMessage, request: ModelRequest) =>
    fromMessage(message, request, model, provider, refusals);
  const call = (request: ModelRequest) =>
    // The call ends an attempt when its signal fires, whether or not the client heeds it.
    callWithRetriesFor(policy, request.signal, classify, send, receive, request);

  return {
    id: `${provider}:${model}`,

    generate(request) {
      if (loaded !== undefined) return call(request);
      // The first call loads the SDK (once) before its first attempt, so the import never counts
      // against an attempt's timeout (a slow import under load timed every attempt out). A request
      // that cannot be sent fails before that.
      try {
        toMessageParams(model, request, defaultMaxTokens, thinking);
      } catch (error) {
        return Promise.reject(error);
      }
      return raceAbort(getClient(), request.signal, provider).then(
        () => call(request),
        (error: unknown) => {
          throw classify(error);
        },
      );
    },

    async *stream(request) {
      const params = toMessageParams(model, request, defaultMaxTokens, thinking);
      const attempt = async function* (signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
        const blocks = new Map<number, { id: string; name: string; json: string; input: unknown }>();
        // Reasoning blocks by stream index (a thinking block's text and signature arrive as deltas).
        const thinkingAt = new Map<number, ReasoningBlock>();
        const reasoningBlocks: ReasoningBlock[] = [];
        let stopDetails: AnthropicStopDetails | null | undefined;
        let text = '';
        const toolCalls: ToolCall[] = [];
        let usage: AnthropicUsage | undefined;
        let stopReason: string | null | undefined;
        let finished = false;
        let modelId = model;
        let started = false;
        let responseId: string | undefined;
        let responseModel: string | undefined;

        const anthropic = await getClient();
        const events = await raceAbort(
          anthropic.messages.create({ ...params, stream: true }, requestOptions(anthropic, signal)),
          signal,
          provider,
        );
        for await (const event of events) {
          switch (event.type) {
            case 'message_start':
              // One message per stream: a second start (a proxy splicing two answers) would mix
              // their blocks and usage; the attempt is retried instead.
              if (started) {
                throw new ModelError(
                  `${provider}: the stream started a second message before the first finished.`,
                  {
                    provider,
                    retryable: true,
                  },
                );
              }
              started = true;
              if (event.message.model) modelId = responseModel = event.message.model;
              if (event.message.id) responseId = event.message.id;
              if (event.message.usage) usage = { ...event.message.usage };
              break;
            case 'content_block_start':
              if (event.content_block.type === 'tool_use') {
                assertToolUse(event.content_block, provider);
                const { id, name, input } = event.content_block;
                // The input usually streams as JSON deltas after an empty `{}`; what the start block
                // holds is used when no delta follows.
                blocks.set(event.index, { id, name, json: '', input });
              } else if (event.content_block.type === 'text' && event.content_block.text) {
                text += event.content_block.text;
                yield { type: 'text-delta', delta: event.content_block.text };
              } else if (event.content_block.type === 'thinking') {
                const start = event.content_block.thinking ?? '';
                const block: ReasoningBlock = { type: 'thinking', text: start };
                if (event.content_block.signature) block.signature = event.content_block.signature;
                thinkingAt.set(event.index, block);
                reasoningBlocks.push(block);
                if (start) yield { type: 'reasoning-delta', delta: start };
              } else if (event.content_block.type === 'redacted_thinking') {
                reasoningBlocks.push({ type: 'redacted', data: event.content_block.data ?? '' });
              }
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta' && event.delta.text !== undefined) {
                text += event.delta.text;
                yield { type: 'text-delta', delta: event.delta.text };
              } else if (event.delta.type === 'input_json_delta') {
                const block = blocks.get(event.index);
                if (block) block.json += event.delta.partial_json ?? '';
              } else if (event.delta.type === 'thinking_delta' && event.delta.thinking) {
                const block = thinkingAt.get(event.index);
                if (block?.type === 'thinking') block.text += event.delta.thinking;
                yield { type: 'reasoning-delta', delta: event.delta.thinking };
              } else if (event.delta.type === 'signature_delta' && event.delta.signature) {
                // The signature comes whole, just before the block stops.
                const block = thinkingAt.get(event.index);
                if (block?.type === 'thinking') block.signature = event.delta.signature;
              }
              break;
            case 'content_block_stop': {
              const block = blocks.get(event.index);
              if (block) {
                blocks.delete(event.index);
                const toolCall =
                  block.json === ''
                    ? toolCallFromInput(block.id, block.name, block.input ?? {})
                    : toolCallFromJson(block.id, block.name, block.json);
                toolCalls.push(toolCall);
                yield { type: 'tool-call', toolCall } satisfies ModelStreamEvent;
              }
              break;
            }
            case 'message_delta':
              stopReason = event.delta.stop_reason ?? stopReason;
              stopDetails = event.delta.stop_details ?? stopDetails;
              if (event.usage) usage = mergeUsage(usage ?? {}, event.usage);
              break;
            case 'message_stop':
              finished = true;
              break;
          }
        }
        // The SDK ends an aborted stream quietly instead of throwing.
        if (signal.aborted) throw new AbortError(`The ${provider} call was aborted.`);
        if (!finished) {
          throw new ModelError(`${provider}: the stream ended before the message finished.`, {
            provider,
            retryable: true,
          });
        }
        if (stopReason === 'refusal' && refusals === 'error') {
          throw refusalError(provider, stopDetails ?? {});
        }
        const reasoning = reasoningOfBlocks(reasoningBlocks);
        const response: ModelResponse = {
          text,
          toolCalls,
          usage: checkedUsage(toUsage(usage), request, text, toolCalls),
          finishReason: toFinishReason(stopReason),
          modelId,
          ...(responseId !== undefined && { responseId }),
          ...(responseModel !== undefined && { responseModel }),
          ...(reasoning !== undefined && { reasoning }),
        };
        yield { type: 'finish', response };
      };
      yield* streamWithRetries(policy, request.signal, classify, attempt, restartEvent);
    },
  };
}

/** The swarm response of a message; a message without content is a retryable fault. */
function fromMessage(
  message: AnthropicMessage,
  request: ModelRequest,
  model: string,
  provider: string,
  refusals: RefusalHandling,
): ModelResponse {
  if (!Array.isArray(message?.content)) {
    throw new ModelError(`${provider}: the response has no content.`, { provider, retryable: true });
  }
  if (message.stop_reason === 'refusal' && refusals === 'error') {
    throw refusalError(provider, message.stop_details ?? {});
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoningBlocks: ReasoningBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text ?? '';
    else if (block.type === 'tool_use') {
      assertToolUse(block, provider);
      toolCalls.push(toolCallFromInput(block.id, block.name, block.input));
    } else if (block.type === 'thinking') {
      reasoningBlocks.push({
        type: 'thinking',
        text: block.thinking ?? '',
        ...(block.signature && { signature: block.signature }),
      });
    } else if (block.type === 'redacted_thinking') {
      reasoningBlocks.push({ type: 'redacted', data: block.data ?? '' });
    }
  }
  const reasoning = reasoningOfBlocks(reasoningBlocks);
  return {
    text,
    toolCalls,
    usage: checkedUsage(toUsage(message.usage), request, text, toolCalls),
    finishReason: toFinishReason(message.stop_reason),
    modelId: message.model || model,
    ...(typeof message.id === 'string' && message.id !== '' && { responseId: message.id }),
    ...(typeof message.model === 'string' && message.model !== '' && { responseModel: message.model }),
    ...(reasoning !== undefined && { reasoning }),
  };
}
/** A tool_use block names its call; one that does not is a malformed response, worth a retry. */
function assertToolUse(
  block: AnthropicContentBlock,
  provider: string,
): asserts block is AnthropicContentBlock & { id: string; name: string } {
  if (typeof block.id !== 'string' || typeof block.name !== 'string') {
    throw new ModelError(`${provider}: the response has a tool_use block without an id or a name.`, {
      provider,
      retryable: true,
    });
  }
}

function toMessageParams(
  model: string,
  request: ModelRequest,
  defaultMaxTokens: number,
  thinking: AnthropicThinkingParam | undefined,
): AnthropicMessageParams {
  const systemParts = request.system ? [request.system] : [];
  const turns: AnthropicMessageParams['messages'] = [];
  const push = (role: 'user' | 'assistant', content: AnthropicContentBlockParam[]) => {
    if (content.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else turns.push({ role, content: [...content] });
  };

  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        if (message.content) systemParts.push(anthropicText(message));
        break;
      case 'user':
        push('user', toAnthropicBlocks(message));
        break;
      case 'assistant': {
        const text = anthropicText(message);
        // Thinking blocks go first in the turn, exactly as they came (signed); reasoning of
        // another provider (unsigned text) cannot be sent as thinking and is left out.
        const content = thinkingBlocksOf(message);
        if (text) content.push({ type: 'text', text });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        }
        push('assistant', content);
        break;
      }
      case 'tool':
        if (!message.toolCallId) {
          throw new ConfigError('A tool message needs the toolCallId of the call it answers.');
        }
        push('user', [
          { type: 'tool_result', tool_use_id: message.toolCallId, content: toolResultContent(message) },
        ]);
        break;
    }
  }
  // Anthropic wants the tool results of a user turn before any text in it.
  for (const turn of turns) {
    if (turn.role === 'user') {
      turn.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
    }
  }

  const params: AnthropicMessageParams = {
    model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    messages: turns,
  };
  const system = systemParts.join('\n\n');
  if (system) params.system = system;
  if (thinking !== undefined) params.thinking = thinking;
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    params.tools = tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object', ...tool.parameters },
    }));
    if (request.toolChoice !== undefined) params.tool_choice = toToolChoice(request.toolChoice);
  }
  // `temperature` is not sent: API version 2026-10-21 (the SDK 1.x default) rejects it with a 400.
  return params;
}

/** An assistant message's reasoning as the blocks Anthropic takes back: signed thinking and redacted thinking. */
function thinkingBlocksOf(message: Message): AnthropicContentBlockParam[] {
  const blocks: AnthropicContentBlockParam[] = [];
  for (const block of message.reasoning?.blocks ?? []) {
    if (block.type === 'thinking' && block.signature) {
      blocks.push({ type: 'thinking', thinking: block.text, signature: block.signature });
    } else if (block.type === 'redacted') {
      blocks.push({ type: 'redacted_thinking', data: block.data });
    }
  }
  return blocks;
}

function toToolChoice(choice: ToolChoice): NonNullable<AnthropicMessageParams['tool_choice']> {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.name };
}

function mergeUsage(into: AnthropicUsage, delta: AnthropicUsage | null | undefined): AnthropicUsage {
  const merged = { ...into };
  if (!delta) return merged;
  if (delta.input_tokens != null) merged.input_tokens = delta.input_tokens;
  if (delta.output_tokens != null) merged.output_tokens = delta.output_tokens;
  if (delta.cache_creation_input_tokens != null) {
    merged.cache_creation_input_tokens = delta.cache_creation_input_tokens;
  }
  if (delta.cache_read_input_tokens != null) merged.cache_read_input_tokens = delta.cache_read_input_tokens;
  if (delta.output_tokens_details != null) merged.output_tokens_details = delta.output_tokens_details;
  return merged;
}

/** Anthropic counts cache reads and writes apart from `input_tokens`; swarm counts them all as input. */
function toUsage(usage: AnthropicUsage | null | undefined): Usage | undefined {
  if (!usage || (usage.input_tokens == null && usage.output_tokens == null)) return undefined;
  const cachedTokens = reportedCount(usage.cache_read_input_tokens);
  const inputTokens =
    reportedCount(usage.input_tokens) + reportedCount(usage.cache_creation_input_tokens) + cachedTokens;
  const outputTokens = reportedCount(usage.output_tokens);
  return {
    inputTokens,
    outputTokens,
    cachedTokens,
    reasoningTokens: reportedCount(usage.output_tokens_details?.thinking_tokens),
    totalTokens: inputTokens + outputTokens,
  };
}

function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
