// Framework overhead of a handoff: `Team.swarm` where triage hands the conversation to billing and
// billing answers (2 model calls), against the same work written by hand over the same fake models.
// Every figure is measured in the same run; the target is printed beside it.
// Run with `pnpm bench` (from the root) or `pnpm --filter @swarm/handoff bench`.
import { Agent, type Message, type Model, type ModelRequest, type ModelResponse } from '@swarm/core';
import { Team } from '../src/index.js';

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };
const handOff: ModelResponse = {
  text: '',
  toolCalls: [{ id: 'call_1', name: 'handoff', arguments: { target: 'billing', message: 'Invoice 42.' } }],
  usage,
  finishReason: 'tool-calls',
  modelId: 'fake',
};
const answer: ModelResponse = {
  text: 'Refunded.',
  toolCalls: [],
  usage,
  finishReason: 'stop',
  modelId: 'fake',
};
const triageModel: Model = { id: 'fake', generate: async (_request: ModelRequest) => handOff };
const billingModel: Model = { id: 'fake', generate: async (_request: ModelRequest) => answer };

// The same two calls by hand: triage's call, the handoff read off it, billing's call.
async function byHand(task: string): Promise<string> {
  const messages: Message[] = [{ role: 'user', content: task }];
  const first = await triageModel.generate({ system: 'Triage.', messages });
  const call = first.toolCalls[0]!;
  const { message } = call.arguments as { target: string; message: string };
  const handed: Message[] = [...messages, { role: 'user', content: message }];
  return (await billingModel.generate({ system: 'Handle billing.', messages: handed })).text;
}

// Mean CPU microseconds (user + system) per call: on a shared machine, waiting for a core is not ours.
async function timePerCall(n: number, fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const triage = new Agent({ name: 'triage', instructions: 'Triage.', model: triageModel });
  const billing = new Agent({ name: 'billing', instructions: 'Handle billing.', model: billingModel });
  const team = Team.swarm({ agents: { triage, billing }, entryAgent: 'triage' });
  const task = 'I was charged twice for invoice 42';
  const first = await team.run(task);
  if (first.output !== 'Refunded.' || first.lastAgent !== 'billing') {
    throw new Error(`The swarm did not run the scripted handoff: ${JSON.stringify(first)}`);
  }
  const sides = { hand: () => byHand(task), swarm: () => team.run(task) };
  const perRound = 1_000;
  for (const fn of Object.values(sides)) await timePerCall(5_000, fn);
  // Alternate rounds, and which side goes first, so that drift of the machine affects both alike.
  const samples = { hand: [] as number[], swarm: [] as number[] };
  for (let round = 0; round < 12; round++) {
    const order = round % 2 === 0 ? (['hand', 'swarm'] as const) : (['swarm', 'hand'] as const);
    for (const side of order) samples[side].push(await timePerCall(perRound, sides[side]));
  }
  const hand = median(samples.hand);
  const swarm = median(samples.swarm);
  const perCall = (swarm - hand) / 2;
  console.log(
    'Team.swarm handoff with fake in-process models (triage hands off, billing answers: 2 calls; CPU time)',
  );
  console.log(
    `  swarm: ${swarm.toFixed(2)} µs/run, by hand: ${hand.toFixed(2)} µs/run: ${perCall.toFixed(2)} µs per model call (target <= 8 µs: ${perCall <= 8 ? 'met' : 'not met'}), ratio ${(swarm / hand).toFixed(1)}x of the bare model calls`,
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
