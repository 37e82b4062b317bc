// Framework overhead of Agent.run, and Agent over the OpenAI provider beside the bare openai SDK.
// Run with `pnpm bench` (from the root) or `pnpm --filter @swarm/core bench`.
import OpenAI from 'openai';
import { Agent } from '../src/agent.js';
import { openaiModel } from '../src/providers/openai.js';
import { mockProviderServer } from '../src/testing/mock-provider-server.js';
import type { Model, ModelResponse } from '../src/types.js';

const instantResponse: ModelResponse = {
  text: 'ok',
  toolCalls: [],
  usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 },
  finishReason: 'stop',
  modelId: 'instant',
};
const instant: Model = { id: 'instant', generate: async () => instantResponse };

async function timePerCall(n: number, fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

async function inProcess(): Promise<void> {
  const agent = new Agent({ name: 'bench', instructions: 'Answer.', model: instant });
  const n = 50_000;
  await timePerCall(5_000, () => agent.run('hello'));
  const bare = await timePerCall(n, () =>
    instant.generate({ messages: [{ role: 'user', content: 'hello' }] }),
  );
  const full = await timePerCall(n, () => agent.run('hello'));
  const overhead = full - bare;
  console.log('Agent.run with an instant in-process model');
  console.log(`  calls: ${n}, per call: ${full.toFixed(2)} µs, bare model: ${bare.toFixed(2)} µs`);
  console.log(
    `  framework time per model call: ${overhead.toFixed(2)} µs (target < 50 µs) ${overhead < 50 ? 'PASS' : 'FAIL'}`,
  );
}

async function overHttp(): Promise<void> {
  const server = await mockProviderServer({ handler: () => ({ text: 'ok' }) });
  try {
    const client = new OpenAI({ apiKey: 'bench', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const agent = new Agent({
      name: 'bench',
      model: openaiModel('gpt-bench', { apiKey: 'bench', baseURL: server.openaiBaseURL, maxRetries: 0 }),
    });
    const sdk = () =>
      client.chat.completions.create({ model: 'gpt-bench', messages: [{ role: 'user', content: 'hello' }] });
    const swarm = () => agent.run('hello');
    await timePerCall(300, sdk);
    await timePerCall(300, swarm);
    // Alternate rounds, and which side goes first, so that drift of the machine affects both alike.
    let sdkTotal = 0;
    let swarmTotal = 0;
    const rounds = 6;
    const perRound = 400;
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        sdkTotal += await timePerCall(perRound, sdk);
        swarmTotal += await timePerCall(perRound, swarm);
      } else {
        swarmTotal += await timePerCall(perRound, swarm);
        sdkTotal += await timePerCall(perRound, sdk);
      }
    }
    const sdkMean = sdkTotal / rounds;
    const swarmMean = swarmTotal / rounds;
    const ratio = swarmMean / sdkMean;
    console.log('Agent over the OpenAI provider vs the bare openai SDK (mockProviderServer, zero latency)');
    console.log(`  bare SDK: ${sdkMean.toFixed(1)} µs/call, Agent: ${swarmMean.toFixed(1)} µs/call`);
    console.log(`  ratio: ${ratio.toFixed(3)}× (target <= 1.2×) ${ratio <= 1.2 ? 'PASS' : 'FAIL'}`);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  await inProcess();
  await overHttp();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
