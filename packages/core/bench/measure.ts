// Helpers shared by the benchmarks: timing in alternating rounds, in-memory OpenAI and Anthropic
// transports, and the one-tool scripted turn every framework is asked to run.

import type Anthropic from '@anthropic-ai/sdk';
import type { Model, ModelRequest, ModelResponse, Usage } from '@swarm/core';
import OpenAI from 'openai';

/**
 * Mean CPU microseconds (user + system, this process) per call of `fn` over `n` sequential calls.
 * CPU time rather than wall time: on a shared machine, time spent waiting for a core is not ours.
 */
export async function timePerCall(n: number, fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

/** Per-call times of each side, and the ratio of two sides taken round by round. */
export interface Comparison<K extends string> {
  /** The median µs per call of each side. */
  perCall: Record<K, number>;
  /** The median over rounds of `a / b` within the same round (robust to drift between rounds). */
  ratio(a: K, b: K): number;
}

/**
 * Times each side in many short alternating rounds (flipping which goes first), after a warm-up,
 * so that the drift of a shared machine affects all sides alike.
 */
export async function compare<K extends string>(
  sides: Record<K, () => Promise<unknown>>,
  options: { perRound: number; rounds: number; warmup: number },
): Promise<Comparison<K>> {
  const names = Object.keys(sides) as K[];
  for (const name of names) await timePerCall(options.warmup, sides[name]);
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) samples.get(name)!.push(await timePerCall(options.perRound, sides[name]));
  }
  const of = (name: K) => samples.get(name)!;
  return {
    perCall: Object.fromEntries(names.map((name) => [name, median(of(name))])) as Record<K, number>,
    ratio: (a, b) => median(of(a).map((value, round) => value / of(b)[round]!)),
  };
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Whether a target was met, as a word for the lines that print a target beside a measurement. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'not met';
}

const usage: Usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };

/** The scripted work: the model asks for `add(2, 3)`, then answers with the tool's result. */
export function scriptedReply(request: Pick<ModelRequest, 'messages'>): ModelResponse {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    return {
      text: `The sum is ${last.content}.`,
      toolCalls: [],
      usage,
      finishReason: 'stop',
      modelId: 'fake',
    };
  }
  return {
    text: '',
    toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }],
    usage,
    finishReason: 'tool-calls',
    modelId: 'fake',
  };
}

/** A fake model running the scripted work with no I/O at all. */
export const fakeModel: Model = { id: 'fake', generate: async (request) => scriptedReply(request) };

/** Options of `inMemoryOpenAI`. */
export interface InMemoryTransportOptions {
  /** Milliseconds each response waits, as a remote model would (default 0: answered at once). */
  latencyMs?: number;
}

/**
 * An `openai` SDK client whose `fetch` answers the Chat Completions calls of the scripted work in
 * memory (no sockets), so that what is timed is the SDK and the framework around it. A request
 * without tools is answered at once.
 */
export function inMemoryOpenAI(options: InMemoryTransportOptions = {}): OpenAI {
  const latency = options.latencyMs ?? 0;
  let id = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as {
      model: string;
      messages: { role: string }[];
      tools?: unknown[];
    };
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    // Without tools to call, or once the tool has answered, the model answers.
    const answers = body.tools === undefined || body.messages.at(-1)?.role === 'tool';
    const message = answers
      ? { role: 'assistant', content: 'The sum is 5.', refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          ],
        };
    const completion = {
      id: `chatcmpl-${++id}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: answers ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    return new Response(JSON.stringify(completion), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return new OpenAI({ apiKey: 'bench', baseURL: 'http://in-memory.invalid/v1', maxRetries: 0, fetch });
}

/** The request body the bare SDK sends for one model call of the scripted work. */
export const addToolParam = {
  type: 'function',
  function: {
    name: 'add',
    description: 'Adds two numbers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
} as const;

/**
 * An `@anthropic-ai/sdk` client whose `fetch` answers the Messages calls of the scripted work in
 * memory, as `inMemoryOpenAI` does for Chat Completions (the SDK is loaded at the first call).
 */
export async function inMemoryAnthropic(): Promise<Anthropic> {
  const { default: AnthropicSdk } = await import('@anthropic-ai/sdk');
  let id = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as {
      model: string;
      messages: { role: string; content: string | { type: string }[] }[];
      tools?: unknown[];
    };
    // Without tools to call, or once the tool has answered (a user turn of tool results), it answers.
    const last = body.messages.at(-1)?.content;
    const answers = body.tools === undefined || (Array.isArray(last) && last[0]?.type === 'tool_result');
    const message = {
      id: `msg_${++id}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: answers
        ? [{ type: 'text', text: 'The sum is 5.' }]
        : [{ type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 2, b: 3 } }],
      stop_reason: answers ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    return new Response(JSON.stringify(message), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return new AnthropicSdk({ apiKey: 'bench', baseURL: 'http://in-memory.invalid', maxRetries: 0, fetch });
}

/** The tool the bare Anthropic SDK sends for one model call of the scripted work. */
export const addAnthropicTool: Anthropic.Tool = {
  name: 'add',
  description: 'Adds two numbers.',
  input_schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
};
