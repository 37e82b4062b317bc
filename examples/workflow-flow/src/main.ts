// AgentRearrange: a content pipeline written as a flow. The researcher goes first; the writer and
// the fact-checker work in parallel on the research; the editor merges their work; a human (H)
// approves or asks for changes; the editor makes the final pass.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, a scripted model answers so the flow still runs offline.
import { createInterface } from 'node:readline/promises';
import { Agent, configuredModel, configureModelHint, type ModelLike, type ModelRequest } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { AgentRearrange } from '@swarm/workflow';

const configured = configuredModel();
const model: ModelLike = configured ?? offlineModel();

const agents = [
  new Agent({
    name: 'researcher',
    instructions: 'Gather the key facts needed for the task, as a short bulleted list.',
    model,
  }),
  new Agent({
    name: 'writer',
    instructions: 'Write a short, clear article for the task from the research you are given.',
    model,
  }),
  new Agent({
    name: 'fact-checker',
    instructions: 'Check the research you are given; list any claim that is doubtful and why.',
    model,
  }),
  new Agent({
    name: 'editor',
    instructions:
      "Edit the article you are given: apply the fact-checker's notes and any reviewer's request. Answer with the article only.",
    model,
  }),
];

const pipeline = new AgentRearrange({
  name: 'content-pipeline',
  agents,
  flow: 'researcher -> writer, fact-checker -> editor -> H -> editor',
  human: askReviewer,
});

async function main(): Promise<void> {
  if (!configured) console.log(`No model configured: a scripted model answers. ${configureModelHint}\n`);
  console.log(`${pipeline.explain()}\n`);
  const result = await pipeline.run('Write a 150-word explainer on why bees matter to farming.', {
    onEvent: (event) => {
      if (event.type === 'agent.end' && event.parentRunId === undefined) console.log(`  ✓ ${event.agent}`);
    },
  });
  console.log('\nEvery member run, in flow order:');
  for (const run of result.runs) console.log(`  column ${run.column}: ${run.agent} (${run.status})`);
  console.log(
    `\nAnswer (${result.llmCalls} model calls, ${result.usage.totalTokens} tokens):\n${result.output}`,
  );
}

// The human step: asks on the terminal when there is one, else approves.
async function askReviewer(input: string): Promise<string> {
  if (!process.stdin.isTTY) return 'Approved as is.';
  console.log(`\n--- For your review ---\n${input}\n`);
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await terminal.question('Your notes for the editor (Enter to approve): ');
    return answer.trim() || 'Approved as is.';
  } finally {
    terminal.close();
  }
}

// Offline answers: each agent answers in character and names what it was handed.
function offlineModel(): ScriptedModel {
  const from = (request: ModelRequest) =>
    request.messages
      .map((m) => m.name)
      .filter(Boolean)
      .join(' and ') || 'the task';
  return new ScriptedModel([], {
    fallback: respond((request) => {
      switch (request.metadata?.agent) {
        case 'researcher':
          return '- Bees pollinate about a third of the crops we eat.\n- Pollination by bees is worth billions a year.';
        case 'writer':
          return `Draft (from ${from(request)}): Bees quietly underwrite farming: a third of our crops depend on them.`;
        case 'fact-checker':
          return `Notes (on ${from(request)}): "a third of crops" should read "a third of crop production by volume".`;
        default:
          return `Edited article (from ${from(request)}): Bees underwrite farming: about a third of crop production depends on their pollination.`;
      }
    }),
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
