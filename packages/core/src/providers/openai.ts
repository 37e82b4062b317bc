import type {
  FinishReason,
  Message,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  Reasoning,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from '../contracts/model.js';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import {
  loadOpenAISdk,
  type OpenAIConnectionOptions,
  openaiCallSetup,
  openaiSdkIfLoaded,
} from './openai-client.js';
import type {
  OpenAIChatClient,
  OpenAIChatCompletion,
  OpenAIChatMessageParam,
  OpenAIChatParams,
  OpenAIChatToolParam,
  OpenAIUsage,
} from './openai-client-shape.js';
import { textOnly, toChatParts } from './openai-content.js';
import {
  callWithRetriesFor,
  type ProviderCallOptions,
  restartEvent,
  streamWithRetries,
} from './provider-call.js';
import { raceAbort } from './provider-error.js';
import { validateProviderOptions } from './provider-settings.js';
import { type RefusalHandling, refusalError } from './reasoning.js';
import { toolCallFromJson } from './tool-arguments.js';
import { checkedUsage, reportedCount } from './usage-estimate.js';

/** Options of `openaiModel`; the same factory serves OpenAI itself and every OpenAI-compatible server. */
export interface OpenAIModelOptions extends OpenAIConnectionOptions, ProviderCallOptions {
  /**
   * A ready client, used as is (key and endpoint options are then ignored): an `openai` 6 or 7
   * client, or anything with the shape of `OpenAIChatClient`.
   */
  client?: OpenAIChatClient;
  /** `max_completion_tokens` for OpenAI proper, `max_tokens` for compatible servers. */
  maxTokensParam?: 'max_completion_tokens' | 'max_tokens';
  /**
   * Whether the server takes `response_format: json_schema` (an Agent's `outputType` then uses it;
   * otherwise a forced final tool). Default: true for OpenAI itself, false for compatible servers.
   */
  jsonSchemaOutput?: boolean;
  /**
   * Whether an assistant turn's reasoning (`Message.reasoning`, from `reasoning_content` or
   * `reasoning`) is sent back, in the field it came in. DeepSeek requires it after a tool call in
   * thinking mode; other servers may reject the field. Default: true for `provider: 'deepseek'`.
   */
  sendReasoning?: boolean;
  /**
   * A refused answer (the message's `refusal`): `'error'` (default) throws a `RefusalError` whose
   * explanation is the refusal text; `'answer'` returns the refusal text as the answer, with
   * `finishReason: 'content-filter'`.
   */
  refusals?: RefusalHandling;
}

/**
 * A Model over the OpenAI Chat Completions API; the SDK client is created at the first call.
 * Retries, timeouts and waits follow `ProviderCallOptions` (the SDK's own retries are off).
 */
export function openaiModel(model: string, options: OpenAIModelOptions = {}): Model {
  validateProviderOptions('openaiModel', model, options);
  const provider = options.provider ?? 'openai';
  const maxTokensParam = options.maxTokensParam ?? 'max_completion_tokens';
  const sendReasoning = options.sendReasoning ?? provider === 'deepseek';
  const refusals = options.refusals ?? 'error';
  if (refusals !== 'error' && refusals !== 'answer') {
    throw new ConfigError(
      `openaiModel: refusals must be 'error' or 'answer', got ${JSON.stringify(refusals)}.`,
    );
  }
  const wire: WireOptions = { maxTokensParam, sendReasoning };
  const { policy, getClient, requestOptions, classify } = openaiCallSetup(provider, options);
  // Made once per model, given each call's request: no closures per call. The params are made per
  // attempt (a retry makes them again, the same): a call in flight holds nothing more of its own.
  // A request they cannot be made of throws at the first attempt: the call rejects with that error.
  const send = (signal: AbortSignal, _attempt: number, request: ModelRequest) => {
    const client: OpenAIChatClient = getClient();
    return client.chat.completions.create(toChatParams(model, request, wire), requestOptions(client, signal));
  };
  // A completion without a choice throws a retryable ModelError: the attempt is retried.
  const receive = (completion: OpenAIChatCompletion, request: ModelRequest) =>
    fromCompletion(completion, request, model, provider, refusals);

  return {
    id: `${provider}:${model}`,
    ...((options.jsonSchemaOutput ?? provider === 'openai') && { structuredOutput: 'json-schema' as const }),

    // Plain functions returning promises rather than async ones: a run in flight holds every
    // suspended async frame, and at a thousand concurrent runs those frames are garbage-collector work.
    generate(request) {
      // The call ends an attempt when its signal fires, whether or not the client heeds it.
      if (options.client !== undefined || openaiSdkIfLoaded() !== undefined) {
        return callWithRetriesFor(policy, request.signal, classify, send, receive, request);
      }
      // The first call loads the SDK (once) before its first attempt, so the import never counts
      // against an attempt's timeout.
      return raceAbort(loadOpenAISdk(), request.signal, provider).then(
        () => callWithRetriesFor(policy, request.signal, classify, send, receive, request),
        (error: unknown) => {
          throw classify(error);
        },
      );
    },

    async *stream(request) {
      const params = toChatParams(model, request, wire);
      const attempt = async function* (signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
        // Keyed by `index`; a server that sends no index (parallel calls one after another) is keyed
        // by the call's id, and a part with neither continues the last call.
        const pending = new Map<number | string, { id: string; name: string; arguments: string }>();
        let lastKey: number | string | undefined;
        let text = '';
        let reasoningText = '';
        let reasoningField: Reasoning['field'];
        let refusal = '';
        let usage: OpenAIUsage | null | undefined;
        let finishReason: string | undefined;
        let modelId = model;
        let responseId: string | undefined;
        let responseModel: string | undefined;
        const toolCalls: ToolCall[] = [];
        const flushToolCalls = function* (): Generator<ModelStreamEvent> {
          for (const call of pending.values()) {
            const toolCall = toolCallFromJson(call.id, call.name, call.arguments);
            toolCalls.push(toolCall);
            yield { type: 'tool-call', toolCall };
          }
          pending.clear();
        };

        if (options.client === undefined && openaiSdkIfLoaded() === undefined) {
          await raceAbort(loadOpenAISdk(), signal, provider);
        }
        const client: OpenAIChatClient = getClient();
        const chunks = await raceAbort(
          client.chat.completions.create(
            { ...params, stream: true, stream_options: { include_usage: true } },
            requestOptions(client, signal),
          ),
          signal,
          provider,
        );
        for await (const chunk of chunks) {
          if (chunk.model) modelId = responseModel = chunk.model;
          if (chunk.id) responseId = chunk.id;
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          const thought = reasoningPiece(delta);
          if (thought !== undefined) {
            reasoningField ??= thought.field;
            reasoningText += thought.text;
            yield { type: 'reasoning-delta', delta: thought.text };
          }
          const thinkingPart = contentThinking(delta?.content);
          if (thinkingPart) {
            reasoningText += thinkingPart;
            yield { type: 'reasoning-delta', delta: thinkingPart };
          }
          if (typeof delta?.refusal === 'string') refusal += delta.refusal;
          const piece = contentText(delta?.content);
          if (piece) {
            text += piece;
            yield { type: 'text-delta', delta: piece };
          }
          for (const part of delta?.tool_calls ?? []) {
            const key: number | string | undefined =
              typeof part.index === 'number'
                ? part.index
                : part.id && !(lastKey !== undefined && pending.get(lastKey)?.id === part.id)
                  ? `id:${part.id}`
                  : lastKey;
            const resolved = key ?? 0;
            lastKey = resolved;
            const call = pending.get(resolved) ?? { id: '', name: '', arguments: '' };
            if (part.id) call.id = part.id;
            if (part.function?.name) call.name = joinName(call.name, part.function.name);
            if (part.function?.arguments) call.arguments += part.function.arguments;
            pending.set(resolved, call);
          }
          if (choice.finish_reason) {
            finishReason = choice.finish_reason;
            yield* flushToolCalls();
          }
        }
        // The SDK ends an aborted stream quietly instead of throwing.
        if (signal.aborted) throw new AbortError(`The ${provider} call was aborted.`);
        if (finishReason === undefined) {
          throw new ModelError(`${provider}: the stream ended before the answer finished.`, {
            provider,
            retryable: true,
          });
        }
        yield* flushToolCalls();
        if (refusal !== '' && refusals === 'error') throw refusalError(provider, { explanation: refusal });
        if (refusal !== '' && text === '') {
          text = refusal;
          yield { type: 'text-delta', delta: refusal };
        }
        const response: ModelResponse = {
          text,
          toolCalls,
          usage: checkedUsage(toUsage(usage), request, text, toolCalls),
          finishReason: refusal !== '' ? 'content-filter' : toFinishReason(finishReason),
          modelId,
          ...(responseId !== undefined && { responseId }),
          ...(responseModel !== undefined && { responseModel }),
          ...(reasoningText !== '' && { reasoning: reasoningOf(reasoningText, reasoningField) }),
        };
        yield { type: 'finish', response };
      };
      yield* streamWithRetries(policy, request.signal, classify, attempt, restartEvent);
    },
  };
}

/** The swarm response of a completion; a completion without a choice is a retryable fault. */
function fromCompletion(
  completion: OpenAIChatCompletion,
  request: ModelRequest,
  model: string,
  provider: string,
  refusals: RefusalHandling,
): ModelResponse {
  const choice = completion.choices?.[0];
  if (!choice?.message) {
    throw new ModelError(`${provider}: the response has no choices.`, { provider, retryable: true });
  }
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    // Mistral sends its calls without `type`: a call with a function is a function call.
    if ((call.type === undefined || call.type === null || call.type === 'function') && call.function) {
      toolCalls.push(toolCallFromJson(call.id, call.function.name, call.function.arguments));
    }
  }
  const refusal = typeof choice.message.refusal === 'string' ? choice.message.refusal : '';
  if (refusal !== '' && refusals === 'error') throw refusalError(provider, { explanation: refusal });
  const text = contentText(choice.message.content) || refusal;
  const thought = reasoningPiece(choice.message);
  const reasoningText = (thought?.text ?? '') + contentThinking(choice.message.content);
  return {
    text,
    toolCalls,
    usage: checkedUsage(toUsage(completion.usage), request, text, toolCalls),
    finishReason: refusal !== '' ? 'content-filter' : toFinishReason(choice.finish_reason),
    modelId: completion.model || model,
    ...(typeof completion.id === 'string' && completion.id !== '' && { responseId: completion.id }),
    ...(typeof completion.model === 'string' &&
      completion.model !== '' && { responseModel: completion.model }),
    ...(reasoningText !== '' && { reasoning: reasoningOf(reasoningText, thought?.field) }),
  };
}

/** How requests go on the wire: the max-tokens parameter's name, and whether reasoning is sent back. */
interface WireOptions {
  maxTokensParam: 'max_completion_tokens' | 'max_tokens';
  sendReasoning: boolean;
}

function reasoningOf(text: string, field: Reasoning['field']): Reasoning {
  return field === undefined ? { text } : { text, field };
}

/** The reasoning text of a message or delta, and the field it came in (`reasoning_content` first). */
function reasoningPiece(
  message: { reasoning_content?: string | null; reasoning?: string | null } | undefined,
): { text: string; field: NonNullable<Reasoning['field']> } | undefined {
  if (typeof message?.reasoning_content === 'string' && message.reasoning_content !== '') {
    return { text: message.reasoning_content, field: 'reasoning_content' };
  }
  if (typeof message?.reasoning === 'string' && message.reasoning !== '') {
    return { text: message.reasoning, field: 'reasoning' };
  }
  return undefined;
}

function toChatParams(model: string, request: ModelRequest, wire: WireOptions): OpenAIChatParams {
  // Made at its final length: an array grown by push keeps room for 16 more, and a request in
  // flight holds it until the answer comes.
  const offset = request.system ? 1 : 0;
  const messages = new Array<OpenAIChatMessageParam>(request.messages.length + offset);
  if (request.system) messages[0] = { role: 'system', content: request.system };
  for (let i = 0; i < request.messages.length; i++)
    messages[i + offset] = toChatMessage(request.messages[i]!, wire.sendReasoning);
  const params: OpenAIChatParams = { model, messages };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    params.tools = tools.map(toChatTool);
    if (request.toolChoice !== undefined) params.tool_choice = toToolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.maxTokens !== undefined) params[wire.maxTokensParam] = request.maxTokens;
  const format = request.responseFormat;
  if (format !== undefined) {
    params.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    };
  }
  return params;
}

// A frozen definition (every Tool's, see `toolDefinition`) cannot change, so its wire form is made once.
const chatTools = new WeakMap<ToolDefinition, OpenAIChatToolParam>();

function toChatTool(tool: ToolDefinition): OpenAIChatToolParam {
  const cached = chatTools.get(tool);
  if (cached !== undefined) return cached;
  const chatTool: OpenAIChatToolParam = {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
  if (Object.isFrozen(tool)) chatTools.set(tool, chatTool);
  return chatTool;
}

function toChatMessage(message: Message, sendReasoning: boolean): OpenAIChatMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: textOnly(message) };
    case 'user': {
      const name = message.name ? sanitizeName(message.name) : '';
      const content = typeof message.content === 'string' ? message.content : toChatParts(message.content);
      return name ? { role: 'user', content, name } : { role: 'user', content };
    }
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      const content = textOnly(message);
      // Only reasoning an OpenAI-compatible server gave (a field named) goes back, in that field.
      const reasoning = message.reasoning;
      const thought =
        sendReasoning && reasoning !== undefined && reasoning.text !== '' && reasoning.blocks === undefined
          ? { [reasoning.field ?? 'reasoning_content']: reasoning.text }
          : undefined;
      if (calls.length === 0) return { role: 'assistant', content, ...thought };
      return {
        role: 'assistant',
        content: content === '' ? null : content,
        ...thought,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.invalidArguments ?? JSON.stringify(call.arguments) },
        })),
      };
    }
    case 'tool':
      if (!message.toolCallId) {
        throw new ConfigError('A tool message needs the toolCallId of the call it answers.');
      }
      return { role: 'tool', tool_call_id: message.toolCallId, content: textOnly(message) };
  }
}

/**
 * The text of a message's or delta's `content`: a string, or an array of parts (Mistral's thinking
 * models) whose `text` parts are the answer; other parts (`thinking`) are not answer text.
 */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as { type?: unknown; text?: unknown }[]) {
    if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/** The readable text of `thinking` parts in a content array (Mistral's thinking models). */
function contentThinking(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content as { type?: unknown; thinking?: unknown }[]) {
    if (part?.type !== 'thinking') continue;
    if (typeof part.thinking === 'string') text += part.thinking;
    else if (Array.isArray(part.thinking)) text += contentText(part.thinking);
  }
  return text;
}

/**
 * A streamed tool name: OpenAI sends it once, some servers repeat it whole in every delta (kept
 * once, not `weatherweather`), and a server that sends it in pieces has it joined.
 */
function joinName(sofar: string, piece: string): string {
  if (sofar === '' || piece === sofar || piece.startsWith(sofar)) return piece;
  return sofar + piece;
}

/** OpenAI accepts only `[a-zA-Z0-9_-]` in a participant name. */
function sanitizeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

function toToolChoice(choice: ToolChoice): NonNullable<OpenAIChatParams['tool_choice']> {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/** The reported usage, or undefined when the server reported none. */
function toUsage(usage: OpenAIUsage | undefined | null): Usage | undefined {
  if (!usage) return undefined;
  const inputTokens = reportedCount(usage.prompt_tokens);
  const outputTokens = reportedCount(usage.completion_tokens);
  return {
    inputTokens,
    outputTokens,
    cachedTokens: reportedCount(usage.prompt_tokens_details?.cached_tokens),
    reasoningTokens: reportedCount(usage.completion_tokens_details?.reasoning_tokens),
    totalTokens: usage.total_tokens == null ? inputTokens + outputTokens : reportedCount(usage.total_tokens),
  };
}

function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
