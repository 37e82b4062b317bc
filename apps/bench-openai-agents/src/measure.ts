// Timing in alternating rounds, and an in-memory `openai` client answering the scripted work.
import OpenAI from 'openai';

/** Mean CPU microseconds (user + system) per call of `fn` over `n` sequential calls. */
async function timePerCall(n: number, fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Per-call times of each side, and the ratio of two sides taken round by round. */
export interface Comparison<K extends string> {
  /** The median CPU µs per call of each side. */
  perCall: Record<K, number>;
  /** The median over rounds of `a / b` within the same round (robust to drift between rounds). */
  ratio(a: K, b: K): number;
}

/**
 * Times each side in short alternating rounds (flipping which goes first), after a warm-up, so
 * that the drift of a shared machine affects all sides alike.
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

/**
 * An `openai` client whose `fetch` answers in memory (no sockets): a request whose last message is
 * a tool result, or that offers no tools, gets the answer; any other gets a call of `add(2, 3)`.
 */
export function inMemoryOpenAI(): OpenAI {
  let id = 0;
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as {
      model: string;
      messages: { role: string }[];
      tools?: unknown[];
    };
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
