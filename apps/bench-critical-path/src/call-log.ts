import { type JsonSchema, type Model, type ModelRequest, type ModelResponse, messageText } from '@swarm/core';
import { autoReply, respond, ScriptedModel, type ScriptedReply } from '@swarm/core/testing';
import type { Embedder } from '@swarm/embeddings';
import { type CallRecord, marker } from './critical-path.js';

/** Answers a request the generic way unless a topology's case takes it over (LLMCouncil's ranking, say). */
export type Override = (request: ModelRequest) => ScriptedReply | undefined;

/**
 * The calls of the runs being measured. Every model and embedder of a case records into one log;
 * `clear()` before a run, `calls` after it.
 */
export class CallLog {
  readonly calls: CallRecord[] = [];
  #next = 1;

  /** Starts a call: its id, and the function that records it when it ends. */
  begin(
    kind: CallRecord['kind'],
    latencyMs: number,
    input: string,
  ): { id: number; done: (decision: boolean) => void } {
    const id = this.#next++;
    const start = performance.now();
    return {
      id,
      done: (decision) =>
        this.calls.push({ id, kind, start, end: performance.now(), latencyMs, input, decision }),
    };
  }

  clear(): void {
    this.calls.length = 0;
  }
}

/**
 * A ScriptedModel answering anything after `latencyMs` (core's `autoReply`, or `override`), whose
 * every call is recorded in `log`, and whose every output (its text and the free strings of a
 * function call's arguments) carries the call's mark, so that later inputs show what they used.
 */
export function latencyModel(log: CallLog, latencyMs: number, override?: Override): Model {
  const scripted = new ScriptedModel([], {
    id: 'simulated',
    latencyMs,
    fallback: respond((request) => override?.(request) ?? autoReply(request)),
    streaming: false,
  });
  return {
    id: scripted.id,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const call = log.begin('model', latencyMs, requestText(request));
      const response = await scripted.generate(request);
      const mark = marker(call.id);
      const tagged: ModelResponse = {
        ...response,
        text: response.text === '' ? '' : `${response.text} ${mark}`,
        toolCalls: response.toolCalls.map((c) => {
          const schema = request.tools?.find((t) => t.name === c.name)?.parameters;
          return {
            ...c,
            arguments: schema
              ? (withMark(schema, c.arguments, mark) as Record<string, unknown>)
              : c.arguments,
          };
        }),
      };
      call.done(response.toolCalls.length > 0);
      return tagged;
    },
  };
}

/** An embedder that takes `latencyMs` per call before `inner` answers, each call recorded in `log` as a decision. */
export function latencyEmbedder(log: CallLog, latencyMs: number, inner: Embedder): Embedder {
  return {
    id: `${inner.id}+${latencyMs}ms`,
    ...(inner.maxBatchSize !== undefined && { maxBatchSize: inner.maxBatchSize }),
    async embed(texts, options) {
      const call = log.begin('embed', latencyMs, texts.join('\n'));
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const vectors = await inner.embed(texts, options);
      call.done(true);
      return vectors;
    },
  };
}

/** What a call was given, as one string: system, every turn (text, tool calls), tool definitions. */
export function requestText(request: ModelRequest): string {
  const turns = request.messages.map(
    (m) =>
      `${m.role}${m.name ? `(${m.name})` : ''}: ${messageText(m)}${m.toolCalls ? ` ${JSON.stringify(m.toolCalls)}` : ''}`,
  );
  return [request.system ?? '', ...turns, JSON.stringify(request.tools ?? [])].join('\n');
}

// A free string (no enum, const, pattern or format to break) gets the mark appended; every other
// value is left as the schema sample made it, so the arguments stay valid.
function withMark(schema: JsonSchema, value: unknown, mark: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (typeof value === 'string') {
    const free =
      type === 'string' && !('enum' in schema) && !('const' in schema) && !schema.pattern && !schema.format;
    const room = typeof schema.maxLength !== 'number' || value.length + mark.length + 1 <= schema.maxLength;
    return free && room ? `${value} ${mark}` : value;
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    return value.map((item) => withMark(schema.items as JsonSchema, item, mark));
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    schema.properties &&
    typeof schema.properties === 'object'
  ) {
    const properties = schema.properties as Record<string, JsonSchema>;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        properties[key] ? withMark(properties[key], v, mark) : v,
      ]),
    );
  }
  return value;
}
