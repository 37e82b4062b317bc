import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { messageText } from '../kernel/content-parts.js';
import { fnv1a } from '../kernel/hash.js';
import { sampleFromSchema } from './schema-sample.js';
import { respond, ScriptedModel, type ScriptedReply } from './scripted-model.js';

/** Options of `autoModel`: answers to put first, before the generic ones. */
export interface AutoModelOptions {
  id?: string;
  /** Return a reply to take over a request, or undefined to let the generic answer stand. */
  override?: (request: ModelRequest, index: number) => ScriptedReply | undefined;
}

/**
 * A ScriptedModel that answers anything: a forced function call with a value sampled from the
 * function's schema, any other request with a short text derived from its last turn (the same
 * request always gets the same text). For conformance runs and smoke tests of a topology.
 */
export function autoModel(options: AutoModelOptions = {}): ScriptedModel {
  return new ScriptedModel([], {
    id: options.id ?? 'auto',
    fallback: respond((request, index) => options.override?.(request, index) ?? autoReply(request)),
  });
}

/** The generic answer of `autoModel` to one request. */
export function autoReply(request: ModelRequest): ScriptedReply {
  const choice = request.toolChoice;
  if (typeof choice === 'object') {
    const definition = request.tools?.find((t) => t.name === choice.name);
    const args = definition ? (sampleFromSchema(definition.parameters) as Record<string, unknown>) : {};
    return { text: '', toolCalls: [{ name: choice.name, arguments: args }] };
  }
  const lastTurn = request.messages.at(-1);
  const last = lastTurn ? messageText(lastTurn) : '';
  return `answer ${fnv1a(`${request.system ?? ''}|${last}`).toString(16)}`;
}

/** A model wrapper that counts the calls that reached `model` and adds up the usage they reported. */
export class CountingModel implements Model {
  readonly id: string;
  calls = 0;
  readonly usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, totalTokens: 0 };
  readonly #model: Model;

  constructor(model: Model) {
    this.#model = model;
    this.id = model.id;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    this.calls += 1;
    const response = await this.#model.generate(request);
    this.#add(response);
    return response;
  }

  // Streaming goes through `generate`, so one place counts every call.
  #add(response: ModelResponse): void {
    for (const key of Object.keys(this.usage) as (keyof typeof this.usage)[]) {
      this.usage[key] += response.usage[key];
    }
  }
}
