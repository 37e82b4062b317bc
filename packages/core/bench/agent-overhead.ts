// Framework overhead of Agent.run on the scripted one-tool turn (the model calls `add`, then
// answers): with a fake in-process model, over an in-memory transport beside the bare openai SDK,
// and over loopback HTTP. Every figure is measured in the same run; targets are printed beside.
// Runs the built package, as users do (`pnpm bench` builds first). Run with `pnpm bench` (from the
// root) or `pnpm --filter @swarm/core bench`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type Anthropic from '@anthropic-ai/sdk';
import { Agent, anthropicModel, type Message, openaiModel, tool } from '@swarm/core';
import { mockProviderServer } from '@swarm/core/testing';
import type OpenAI from 'openai';
import { z } from 'zod';
import {
  addAnthropicTool,
  addToolParam,
  compare,
  fakeModel,
  inMemoryAnthropic,
  inMemoryOpenAI,
  median,
  timePerCall,
  verdict,
} from './measure.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

// The scripted work written by hand against the fake model: the floor for two model calls.
async function bareFakeTurn(): Promise<string> {
  const messages: Message[] = [{ role: 'user', content: 'What is 2 + 3?' }];
  const first = await fakeModel.generate({ messages });
  const call = first.toolCalls[0]!;
  const { a, b } = call.arguments as { a: number; b: number };
  messages.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls });
  messages.push({ role: 'tool', toolCallId: call.id, content: String(a + b) });
  return (await fakeModel.generate({ messages })).text;
}

// The same work by hand with the bare openai SDK (with `signal`, each call can be cancelled).
async function bareSdkTurn(client: OpenAI, content: string, signal?: AbortSignal): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content }];
  const options = signal ? { signal } : undefined;
  const first = await client.chat.completions.create(
    { model: 'gpt-bench', messages, tools: [addToolParam] },
    options,
  );
  const message = first.choices[0]!.message;
  messages.push(message);
  for (const call of message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const { a, b } = JSON.parse(call.function.arguments) as { a: number; b: number };
    messages.push({ role: 'tool', tool_call_id: call.id, content: String(a + b) });
  }
  const second = await client.chat.completions.create(
    { model: 'gpt-bench', messages, tools: [addToolParam] },
    options,
  );
  return second.choices[0]!.message.content ?? '';
}

async function fakeModelOverhead(): Promise<void> {
  const agent = new Agent({ name: 'bench', instructions: 'Answer.', model: fakeModel, tools: [add] });
  const plain = new Agent({ name: 'bench', instructions: 'Answer.', model: fakeModel });
  const oneCall = () => fakeModel.generate({ messages: [{ role: 'user', content: 'hello' }] });
  const { perCall: t } = await compare(
    {
      bareTurn: bareFakeTurn,
      agentTurn: () => agent.run('What is 2 + 3?'),
      bareCall: oneCall,
      agentCall: () => plain.run('hello'),
      schema: async () => z.toJSONSchema(add.parameters, { io: 'input', unrepresentable: 'any' }),
    },
    { perRound: 4_000, rounds: 6, warmup: 4_000 },
  );
  const perCall = (t.agentTurn - t.bareTurn) / 2;
  const single = t.agentCall - t.bareCall;
  console.log('Agent.run with a fake in-process model (framework time per model call)');
  console.log(
    `  one-tool turn (2 calls): ${t.agentTurn.toFixed(2)} µs vs ${t.bareTurn.toFixed(2)} µs by hand: ${perCall.toFixed(2)} µs per model call (target <= 5 µs: ${verdict(perCall <= 5)})`,
  );
  console.log(
    `  answer only (1 call, no per-run cost shared): ${t.agentCall.toFixed(2)} µs vs ${t.bareCall.toFixed(2)} µs by hand: ${single.toFixed(2)} µs per model call`,
  );
  console.log(
    `  building the tool's JSON Schema (now once per tool, was every run): ${t.schema.toFixed(2)} µs = ${(t.schema / t.agentTurn).toFixed(2)}x a whole turn today`,
  );
}

type TransportSide = 'sdk' | 'agent';
type Provider = 'openai' | 'anthropic';
const transportRounds = 12;
const transportProcesses = 5;

// The same work by hand with the bare Anthropic SDK.
async function bareAnthropicTurn(client: Anthropic, content: string): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content }];
  const params = { model: 'claude-bench', max_tokens: 1024, tools: [addAnthropicTool] };
  const first = await client.messages.create({ ...params, messages });
  messages.push({ role: 'assistant', content: first.content });
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const block of first.content) {
    if (block.type !== 'tool_use') continue;
    const { a, b } = block.input as { a: number; b: number };
    results.push({ type: 'tool_result', tool_use_id: block.id, content: String(a + b) });
  }
  messages.push({ role: 'user', content: results });
  const second = await client.messages.create({ ...params, messages });
  const text = second.content.find((block) => block.type === 'text');
  return text?.type === 'text' ? text.text : '';
}

// One side of one provider's in-memory turn, as a function to time.
async function transportTurn(provider: Provider, side: TransportSide): Promise<() => Promise<unknown>> {
  const question = 'What is 2 + 3?';
  if (provider === 'openai') {
    const client = inMemoryOpenAI();
    const agent = new Agent({ name: 'bench', model: openaiModel('gpt-bench', { client }), tools: [add] });
    return side === 'sdk' ? () => bareSdkTurn(client, question) : () => agent.run(question);
  }
  const client = await inMemoryAnthropic();
  const model = anthropicModel('claude-bench', { client, defaultMaxTokens: 1024 });
  const agent = new Agent({ name: 'bench', model, tools: [add] });
  return side === 'sdk' ? () => bareAnthropicTurn(client, question) : () => agent.run(question);
}

// In a child process: one side alone (as an application runs one or the other), warmed up, then
// timed in rounds; prints the µs per turn of each round.
async function transportChild(provider: Provider, side: TransportSide): Promise<void> {
  const turn = await transportTurn(provider, side);
  await timePerCall(3_000, turn);
  const rounds: number[] = [];
  for (let round = 0; round < transportRounds; round++) rounds.push(await timePerCall(500, turn));
  process.stdout.write(JSON.stringify(rounds));
}

function spawnTransport(provider: Provider, side: TransportSide): number[] {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'transport', provider, side],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`${provider} ${side} child failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as number[];
}

// Each side in its own processes (alternating), as an application runs one of them; the ratio is
// the median over rounds of agent / SDK, round i of one process beside round i of the other, the
// pair run back to back.
function separateProcesses(provider: Provider): { sdk: number; agent: number; ratio: number } {
  const sides: Record<TransportSide, number[]> = { sdk: [], agent: [] };
  for (let i = 0; i < transportProcesses; i++) {
    const order: TransportSide[] = i % 2 === 0 ? ['sdk', 'agent'] : ['agent', 'sdk'];
    for (const side of order) sides[side].push(...spawnTransport(provider, side));
  }
  return {
    sdk: median(sides.sdk),
    agent: median(sides.agent),
    ratio: median(sides.agent.map((value, round) => value / sides.sdk[round]!)),
  };
}

async function inMemoryTransport(): Promise<void> {
  // The target: each side in its own processes (alternating), as an application runs one of them;
  // the ratio is the median over rounds of agent / SDK, round i of one process beside round i of
  // the other, the pair run back to back.
  const { sdk, agent: ours, ratio } = separateProcesses('openai');
  console.log('Agent over the OpenAI provider vs the bare openai SDK (in-memory fetch, one-tool turn)');
  console.log(
    `  each side in its own processes: bare SDK ${sdk.toFixed(1)} µs/turn, Agent ${ours.toFixed(1)} µs/turn, ratio ${ratio.toFixed(3)}x (target <= 1.05x: ${verdict(ratio <= 1.05)})`,
  );

  // Not the target: both sides interleaved in this one process (the SDK's code then serves both
  // shapes of call), and both given a cancel signal (one AbortController per turn), which costs
  // the SDK a few microseconds per call whoever hands it over.
  const client = inMemoryOpenAI();
  const agent = new Agent({ name: 'bench', model: openaiModel('gpt-bench', { client }), tools: [add] });
  const question = 'What is 2 + 3?';
  const c = await compare(
    {
      sdk: () => bareSdkTurn(client, question),
      agent: () => agent.run(question),
      sdkSignal: () => bareSdkTurn(client, question, new AbortController().signal),
      agentSignal: () => agent.run(question, { signal: new AbortController().signal }),
    },
    { perRound: 250, rounds: 20, warmup: 1_000 },
  );
  const t = c.perCall;
  console.log(
    `  both in one process, interleaved (not the target): bare SDK ${t.sdk.toFixed(1)} µs/turn, Agent ${t.agent.toFixed(1)} µs/turn, ratio ${c.ratio('agent', 'sdk').toFixed(3)}x`,
  );
  console.log(
    `  both given an AbortSignal per turn, one process (not the target): bare SDK ${t.sdkSignal.toFixed(1)} µs/turn, Agent ${t.agentSignal.toFixed(1)} µs/turn, ratio ${c.ratio('agentSignal', 'sdkSignal').toFixed(3)}x`,
  );
}

async function anthropicTransport(): Promise<void> {
  // Not a target of its own: the same measure for the other provider.
  const { sdk, agent, ratio } = separateProcesses('anthropic');
  console.log(
    'Agent over the Anthropic provider vs the bare @anthropic-ai/sdk (in-memory fetch, one-tool turn)',
  );
  console.log(
    `  each side in its own processes: bare SDK ${sdk.toFixed(1)} µs/turn, Agent ${agent.toFixed(1)} µs/turn, ratio ${ratio.toFixed(3)}x`,
  );
}

async function overHttp(): Promise<void> {
  const server = await mockProviderServer({ handler: () => ({ text: 'ok' }) });
  try {
    const options = { apiKey: 'bench', baseURL: server.openaiBaseURL, maxRetries: 0 };
    const { default: OpenAISdk } = await import('openai');
    const client = new OpenAISdk(options);
    const agent = new Agent({ name: 'bench', model: openaiModel('gpt-bench', options) });
    const c = await compare(
      {
        sdk: () =>
          client.chat.completions.create({
            model: 'gpt-bench',
            messages: [{ role: 'user', content: 'hello' }],
          }),
        agent: () => agent.run('hello'),
      },
      { perRound: 100, rounds: 10, warmup: 200 },
    );
    const t = c.perCall;
    console.log('Agent over the OpenAI provider vs the bare openai SDK (loopback mockProviderServer)');
    console.log(
      `  bare SDK: ${t.sdk.toFixed(1)} µs/call, Agent: ${t.agent.toFixed(1)} µs/call, ratio ${c.ratio('agent', 'sdk').toFixed(3)}x`,
    );
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  await fakeModelOverhead();
  await inMemoryTransport();
  await anthropicTransport();
  await overHttp();
}

const entry =
  process.argv[2] === 'transport'
    ? () => transportChild(process.argv[3] as Provider, process.argv[4] as TransportSide)
    : main;
entry().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
