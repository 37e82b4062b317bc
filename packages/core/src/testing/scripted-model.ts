import type {
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCall,
  Usage,
} from '../contracts/model.js';
import { AbortError, ConfigError } from '../kernel/errors.js';

/** A reply a scripted step produces: plain text, or any part of a ModelResponse. */
export type ScriptedReply =
  | string
  | (Partial<Omit<ModelResponse, 'toolCalls' | 'usage'>> & {
      toolCalls?: ScriptedToolCall[];
      usage?: Partial<Usage>;
    });

/** A tool call in a script; the id is generated when omitted. */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

/** One step of a script: what the model does on one call. */
export type ScriptStep =
  | { kind: 'reply'; reply: ScriptedReply }
  | { kind: 'fail'; error: unknown }
  | { kind: 'respond'; fn: (request: ModelRequest, index: number) => ScriptedReply | Promise<ScriptedReply> };

/** The model answers with text. */
export function reply(text: string, extra: Omit<Exclude<ScriptedReply, string>, 'text'> = {}): ScriptStep {
  return { kind: 'reply', reply: { ...extra, text } };
}

/** The model calls one tool (optionally with some text beside the call). */
export function toolCall(
  name: string,
  args: Record<string, unknown>,
  options: { id?: string; text?: string } = {},
): ScriptStep {
  return {
    kind: 'reply',
    reply: { text: options.text ?? '', toolCalls: [{ name, arguments: args, id: options.id }] },
  };
}

/** The model calls several tools in one response. */
export function toolCalls(...calls: ScriptedToolCall[]): ScriptStep {
  return { kind: 'reply', reply: { text: '', toolCalls: calls } };
}

/** The model calls whichever function the request forces (`toolChoice: { name }`) with `args`: the answer to a `generateObject`. */
export function object(args: Record<string, unknown>): ScriptStep {
  return respond((request) => {
    const choice = request.toolChoice;
    const name = typeof choice === 'object' ? choice.name : request.tools?.[0]?.name;
    if (!name) throw new Error('object(): the request forces no function and offers no tools.');
    return { text: '', toolCalls: [{ name, arguments: args }] };
  });
}

/** The call fails with `error`. */
export function fail(error: unknown = new Error('scripted failure')): ScriptStep {
  return { kind: 'fail', error };
}

/** The reply is computed from the request (and the call's index, from 0). */
export function respond(
  fn: (request: ModelRequest, index: number) => ScriptedReply | Promise<ScriptedReply>,
): ScriptStep {
  return { kind: 'respond', fn };
}

/** Options of a ScriptedModel. */
export interface ScriptedModelOptions {
  id?: string;
  /** Used for every call once the script is spent; without it an unexpected call throws (strict). */
  fallback?: ScriptStep;
  /** Delay before each answer; honours the request's signal. */
  latencyMs?: number;
  /** Usage reported by a reply that names none (default 10 in, 5 out). */
  usage?: Partial<Usage>;
  /** Offer `stream()` (default true); streamed text arrives word by word. */
  streaming?: boolean;
}

/**
 * A Model that follows a script, for testing topologies without a network. Strict by default: a
 * call with no step left throws. Every request is recorded in `calls`.
 */
export class ScriptedModel implements Model {
  readonly id: string;
  /** Every request received, in order (without its signal). */
  readonly calls: ModelRequest[] = [];
  readonly #steps: ScriptStep[];
  readonly #options: ScriptedModelOptions;
  #toolCallCounter = 0;

  constructor(steps: ScriptStep[] = [], options: ScriptedModelOptions = {}) {
    if (options.latencyMs !== undefined && !(options.latencyMs >= 0)) {
      throw new ConfigError(`ScriptedModel: latencyMs must be >= 0 (got ${options.latencyMs}).`);
    }
    this.id = options.id ?? 'scripted';
    this.#steps = [...steps];
    this.#options = options;
    if (options.streaming === false) this.stream = undefined;
  }

  /** Appends steps to the script. */
  push(...steps: ScriptStep[]): this {
    this.#steps.push(...steps);
    return this;
  }

  /** Steps not yet used. */
  get remaining(): number {
    return this.#steps.length;
  }

  /** The last request received. */
  get lastCall(): ModelRequest | undefined {
    return this.calls.at(-1);
  }

  /** Throws when steps of the script were never used. */
  assertComplete(): void {
    if (this.#steps.length > 0) {
      throw new Error(`ScriptedModel "${this.id}": ${this.#steps.length} scripted step(s) were never used.`);
    }
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const index = this.calls.length;
    const { signal, ...recorded } = request;
    this.calls.push(structuredClone(recorded));
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    const step = this.#steps.shift() ?? this.#options.fallback;
    if (!step) {
      throw new Error(
        `ScriptedModel "${this.id}": unexpected call #${index + 1} (agent ${request.metadata?.agent ?? '?'}, purpose ${request.metadata?.purpose ?? '?'}): the script is spent.`,
      );
    }
    if (this.#options.latencyMs) await sleep(this.#options.latencyMs, signal);
    if (step.kind === 'fail') throw step.error;
    // A `respond` step that waits (on a gate, say) still gives way to an abort.
    const scripted = step.kind === 'reply' ? step.reply : await untilAborted(step.fn(request, index), signal);
    return this.#toResponse(scripted);
  }

  stream?: (request: ModelRequest) => AsyncIterable<ModelStreamEvent> = (request) => this.#stream(request);

  async *#stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.generate(request);
    for (const word of response.text.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', delta: word };
    for (const call of response.toolCalls) yield { type: 'tool-call', toolCall: call };
    yield { type: 'finish', response };
  }

  #toResponse(scripted: ScriptedReply): ModelResponse {
    const r = typeof scripted === 'string' ? { text: scripted } : scripted;
    const toolCalls: ToolCall[] = (r.toolCalls ?? []).map((c) => ({
      id: c.id ?? `call_${++this.#toolCallCounter}`,
      name: c.name,
      arguments: c.arguments,
    }));
    const base = {
      inputTokens: 10,
      outputTokens: 5,
      cachedTokens: 0,
      reasoningTokens: 0,
      ...this.#options.usage,
      ...r.usage,
    };
    const usage: Usage = {
      ...base,
      totalTokens: r.usage?.totalTokens ?? base.inputTokens + base.outputTokens,
    };
    return {
      text: r.text ?? '',
      toolCalls,
      usage,
      finishReason: r.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
      modelId: r.modelId ?? this.id,
    };
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError(undefined, { cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  const promise = Promise.resolve(value);
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(undefined, { cause: signal.reason }));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
