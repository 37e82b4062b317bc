import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import {
  AbortError,
  type ClassifyError,
  ConfigError,
  callPolicy,
  callWithRetries,
  checkedUsage,
  type Model,
  ModelError,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type ProviderCallOptions,
  raceAbort,
  streamWithRetries,
  type ToolCall,
  validateProviderOptions,
} from '@swarm/core';
import { toCallOptions } from './call-options.js';
import { classifyAiSdkError } from './classify-error.js';
import { fromGenerateResult, toFinishReason, toToolCall, toUsage } from './model-response.js';

/** Options of `aiSdkModel`: swarm's retry and time policy, and what every call sends the provider. */
export interface AiSdkModelOptions extends ProviderCallOptions {
  /** The model's id in traces and errors (default `<provider>:<modelId>`, e.g. `mistral:mistral-large-latest`). */
  id?: string;
  /** Provider-specific options sent with every call (`{ openai: { reasoningEffort: 'low' } }`). */
  providerOptions?: SharedV4ProviderOptions;
  /** Extra HTTP headers sent with every call. */
  headers?: Record<string, string | undefined>;
}

/**
 * Any AI SDK language model (`specificationVersion: 'v4'`: Google, Bedrock, Azure, Mistral, xAI,
 * Groq, ...) as a swarm Model, usable wherever a model string goes. Retries, timeouts and waits
 * follow swarm's `ProviderCallOptions`, as for the built-in providers: the AI SDK retries in
 * `generateText`, never in the model itself, so each attempt is one provider call.
 */
export function aiSdkModel(languageModel: LanguageModelV4, options: AiSdkModelOptions = {}): Model {
  checkLanguageModel(languageModel);
  validateProviderOptions('aiSdkModel', languageModel.modelId, options);
  if (options.id !== undefined && (typeof options.id !== 'string' || options.id.trim() === '')) {
    throw new ConfigError('aiSdkModel: id must be a non-empty string.');
  }
  const provider = languageModel.provider;
  const modelId = languageModel.modelId;
  const policy = callPolicy(provider, options);
  const classify: ClassifyError = (error) => classifyAiSdkError(error, provider);
  const defaults = { providerOptions: options.providerOptions, headers: options.headers };

  return {
    id: options.id ?? `${provider.split('.')[0]}:${modelId}`,

    generate(request) {
      let callOptions: Omit<LanguageModelV4CallOptions, 'abortSignal'>;
      try {
        callOptions = toCallOptions(request, defaults);
      } catch (error) {
        return Promise.reject(error);
      }
      return callWithRetries(
        policy,
        request.signal,
        classify,
        (signal) => Promise.resolve(languageModel.doGenerate({ ...callOptions, abortSignal: signal })),
        (result) => fromGenerateResult(result, request, modelId, provider),
      );
    },

    async *stream(request) {
      const callOptions = toCallOptions(request, defaults);
      yield* streamWithRetries(policy, request.signal, classify, (signal) =>
        streamAttempt(languageModel, { ...callOptions, abortSignal: signal }, request, signal),
      );
    },
  };
}

// One streamed attempt: text deltas and tool calls as they come, then the whole response. The
// reader is cancelled when the attempt's signal fires, so a model that ignores its signal cannot
// hold the call, and when the consumer stops early, so the provider's request is closed.
async function* streamAttempt(
  languageModel: LanguageModelV4,
  callOptions: LanguageModelV4CallOptions,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelStreamEvent> {
  const { provider } = languageModel;
  const { stream } = await raceAbort(Promise.resolve(languageModel.doStream(callOptions)), signal, provider);
  const reader = stream.getReader();
  const cancel = () => {
    reader.cancel(signal.reason).catch(() => undefined);
  };
  signal.addEventListener('abort', cancel, { once: true });
  let ended = false;
  try {
    let text = '';
    const toolCalls: ToolCall[] = [];
    let usage: LanguageModelV4Usage | undefined;
    let finishReason: LanguageModelV4FinishReason | undefined;
    let modelId = languageModel.modelId;
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          if (part.delta) {
            text += part.delta;
            yield { type: 'text-delta', delta: part.delta };
          }
          break;
        case 'tool-call':
          if (!part.providerExecuted) {
            const toolCall = toToolCall(part);
            toolCalls.push(toolCall);
            yield { type: 'tool-call', toolCall };
          }
          break;
        case 'response-metadata':
          if (part.modelId) modelId = part.modelId;
          break;
        case 'finish':
          usage = part.usage;
          finishReason = part.finishReason;
          break;
        case 'error':
          throw part.error;
      }
    }
    ended = true;
    // Cancelled by the signal: the retry policy tells an abort from a timeout.
    if (signal.aborted) throw new AbortError(`The ${provider} call was aborted.`, { cause: signal.reason });
    if (finishReason === undefined) {
      throw new ModelError(`${provider}: the stream ended before the answer finished.`, {
        provider,
        retryable: true,
      });
    }
    const response: ModelResponse = {
      text,
      toolCalls,
      usage: checkedUsage(toUsage(usage), request, text, toolCalls),
      finishReason: toFinishReason(finishReason, provider),
      modelId,
    };
    yield { type: 'finish', response };
  } finally {
    signal.removeEventListener('abort', cancel);
    if (!ended) reader.cancel().catch(() => undefined);
  }
}

function checkLanguageModel(languageModel: unknown): asserts languageModel is LanguageModelV4 {
  if (typeof languageModel === 'string') {
    throw new ConfigError(
      `aiSdkModel: expected an AI SDK language model object (e.g. mistral('mistral-large-latest')), got the string ${JSON.stringify(languageModel)}. Model strings go to resolveModel, or straight into an Agent's model option.`,
    );
  }
  const model = languageModel as Partial<LanguageModelV4> | null;
  if (typeof model !== 'object' || model === null) {
    throw new ConfigError('aiSdkModel: expected an AI SDK language model object.');
  }
  if (model.specificationVersion !== 'v4') {
    throw new ConfigError(
      `aiSdkModel: expected an AI SDK LanguageModelV4 (specificationVersion 'v4', the @ai-sdk/* provider packages for ai 7); got specificationVersion ${JSON.stringify(model.specificationVersion)}. Update the provider package.`,
    );
  }
  if (typeof model.doGenerate !== 'function' || typeof model.doStream !== 'function') {
    throw new ConfigError('aiSdkModel: the language model has no doGenerate or doStream method.');
  }
  if (typeof model.provider !== 'string' || typeof model.modelId !== 'string') {
    throw new ConfigError('aiSdkModel: the language model has no provider or modelId string.');
  }
}
