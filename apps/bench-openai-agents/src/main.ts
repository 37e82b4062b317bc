// Our Agent against the OpenAI Agents SDK on the same scripted work: the model calls `add(2, 3)`,
// the tool runs, the model answers. Each framework is driven through its own fake-model hook, then
// through the same in-memory `openai` client. The SDK is `@openai/agents-core` and
// `@openai/agents-openai`: what `@openai/agents` bundles, less its realtime (voice) part.
// Run with `pnpm bench` (from the root) or `pnpm --filter @swarm-apps/bench-openai-agents bench`.
import {
  Agent as OpenAIAgent,
  type Model as OpenAIAgentsModel,
  type ModelRequest as OpenAIAgentsRequest,
  type ModelResponse as OpenAIAgentsResponse,
  Usage as OpenAIAgentsUsage,
  tool as openaiTool,
  Runner,
} from '@openai/agents-core';
import { OpenAIChatCompletionsModel } from '@openai/agents-openai';
import { Agent, openaiModel, tool } from '@swarm/core';
import { z } from 'zod';
// Core's bench helpers (alternating-round timing, the scripted model, the in-memory `openai`
// client), by path since they are not in core's published files. Their `openai` import resolves
// to the one copy this package uses too (both take it from the workspace catalog).
import { compare, fakeModel, inMemoryOpenAI } from '../../../packages/core/bench/measure.js';

const parameters = z.object({ a: z.number(), b: z.number() });
const ours = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters,
  execute: ({ a, b }) => a + b,
});
const theirs = openaiTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters,
  execute: ({ a, b }) => a + b,
});

// The scripted work as an Agents SDK model: the same decisions as `fakeModel`, in its item format.
const theirFakeModel: OpenAIAgentsModel = {
  async getResponse(request: OpenAIAgentsRequest): Promise<OpenAIAgentsResponse> {
    const input = Array.isArray(request.input) ? request.input : [];
    const last = input.at(-1);
    const usage = new OpenAIAgentsUsage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (last?.type === 'function_call_result') {
      const output = last.output;
      const text = typeof output === 'string' ? output : 'text' in output ? output.text : '';
      return {
        usage,
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: `The sum is ${text}.` }],
          },
        ],
      };
    }
    return {
      usage,
      output: [
        {
          type: 'function_call',
          callId: 'call_1',
          name: 'add',
          arguments: '{"a":2,"b":3}',
          status: 'completed',
        },
      ],
    };
  },
  getStreamedResponse(): never {
    throw new Error('The benchmark does not stream.');
  },
};

function check(output: unknown, who: string): void {
  if (output !== 'The sum is 5.')
    throw new Error(`${who} gave ${JSON.stringify(output)}, not the scripted answer.`);
}

async function main(): Promise<void> {
  const runner = new Runner({ tracingDisabled: true });
  const question = 'What is 2 + 3?';

  const ourFake = new Agent({ name: 'bench', instructions: 'Answer.', model: fakeModel, tools: [ours] });
  const theirFake = new OpenAIAgent({
    name: 'bench',
    instructions: 'Answer.',
    model: theirFakeModel,
    tools: [theirs],
  });
  check((await ourFake.run(question)).output, 'swarm (fake model)');
  check((await runner.run(theirFake, question)).finalOutput, '@openai/agents (fake model)');
  const fake = await compare(
    {
      swarm: () => ourFake.run(question),
      openaiAgents: () => runner.run(theirFake, question),
    },
    { perRound: 100, rounds: 12, warmup: 500 },
  );
  console.log('Same one-tool turn (2 model calls), each framework with its own fake-model hook (CPU time)');
  console.log(
    `  swarm: ${(fake.perCall.swarm / 2).toFixed(1)} µs per model call, @openai/agents: ${(fake.perCall.openaiAgents / 2).toFixed(1)} µs per model call, ratio ${fake.ratio('openaiAgents', 'swarm').toFixed(1)}x`,
  );

  const client = inMemoryOpenAI();
  const ourSdk = new Agent({
    name: 'bench',
    instructions: 'Answer.',
    model: openaiModel('gpt-bench', { client }),
    tools: [ours],
  });
  const theirSdk = new OpenAIAgent({
    name: 'bench',
    instructions: 'Answer.',
    model: new OpenAIChatCompletionsModel(client, 'gpt-bench'),
    tools: [theirs],
  });
  check((await ourSdk.run(question)).output, 'swarm (openai client)');
  check((await runner.run(theirSdk, question)).finalOutput, '@openai/agents (openai client)');
  const sdk = await compare(
    {
      swarm: () => ourSdk.run(question),
      openaiAgents: () => runner.run(theirSdk, question),
    },
    { perRound: 100, rounds: 12, warmup: 300 },
  );
  console.log('Same one-tool turn through the same in-memory openai client (Chat Completions, CPU time)');
  console.log(
    `  swarm: ${sdk.perCall.swarm.toFixed(1)} µs per turn, @openai/agents: ${sdk.perCall.openaiAgents.toFixed(1)} µs per turn, ratio ${sdk.ratio('openaiAgents', 'swarm').toFixed(2)}x`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
