// GraphWorkflow: a product launch as a DAG. Market research and the technical review run in
// parallel; pricing waits for both; the launch copy (itself a SequentialWorkflow: copywriter, then
// legal) waits for the research; the launch lead writes the plan from pricing and copy.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, a scripted model answers (with a little latency, to show what runs in parallel).
import { Agent, configuredModel, configureModelHint, type ModelLike } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { GraphWorkflow, SequentialWorkflow } from '@swarm/workflow';

const configured = configuredModel();
const model: ModelLike = configured ?? offlineModel();

const agent = (name: string, instructions: string) => new Agent({ name, instructions, model });

const market = agent('market-analyst', 'Size the market and name the main competitors, briefly.');
const tech = agent('engineer', 'Review the technical risks of launching, briefly.');
const pricing = agent(
  'pricing-analyst',
  'Propose a price from the market analysis and the technical review.',
);
const copy = new SequentialWorkflow({
  name: 'launch-copy',
  agents: [
    agent('copywriter', 'Write a three-sentence launch announcement from the market analysis.'),
    agent('legal', 'Rewrite the announcement you are given so it makes no claim that cannot be backed up.'),
  ],
});
const lead = agent('launch-lead', 'Write a five-step launch plan from the pricing and the approved copy.');

const launch = new GraphWorkflow({
  name: 'product-launch',
  nodes: { market, tech, pricing, copy, plan: lead },
  edges: [
    ['market', 'pricing'],
    ['tech', 'pricing'],
    ['market', 'copy'],
    ['pricing', 'plan'],
    ['copy', 'plan'],
  ],
});

async function main(): Promise<void> {
  if (!configured) console.log(`No model configured: a scripted model answers. ${configureModelHint}\n`);
  const started = performance.now();
  const result = await launch.run('Launch a smart water bottle that reminds people to drink.', {
    onEvent: (event) => {
      if (event.type === 'graph.node' && event.parentRunId === undefined) {
        const ms = (performance.now() - started).toFixed(0).padStart(5);
        console.log(`${ms} ms  ${String(event.node).padEnd(8)} ${event.status}`);
      }
    },
  });
  console.log(
    `\nNodes: ${Object.entries(result.nodes)
      .map(([id, n]) => `${id}=${n.status}`)
      .join(', ')}`,
  );
  console.log(
    `\nLaunch plan (${result.llmCalls} model calls, ${result.usage.totalTokens} tokens):\n${result.output}`,
  );
}

// Offline answers: each agent answers in character and names what it was handed.
function offlineModel(): ScriptedModel {
  const answers: Record<string, string> = {
    'market-analyst': 'A $2B market; main competitors HidrateSpark and LARQ.',
    engineer: 'Main risk: battery life of the reminder light; a 2-week battery is feasible.',
    'pricing-analyst': 'Price at $49, below HidrateSpark, above plain bottles.',
    copywriter: 'Meet Sip: the bottle that glows when it is time to drink. The best bottle ever made.',
    legal: 'Meet Sip: the bottle that glows when it is time to drink. Two weeks per charge.',
    'launch-lead': '1. Pre-orders at $49. 2. Reviews. 3. Launch post. 4. Retail. 5. Follow-up survey.',
  };
  return new ScriptedModel([], {
    latencyMs: 150,
    fallback: respond((request) => answers[request.metadata?.agent ?? ''] ?? 'Done.'),
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
