/**
 * Seed 004: a coordinated, multi-agent Tree of Thoughts on an open question. With a model
 * configured (SWARM_MODEL, OPENAI_API_KEY, ANTHROPIC_API_KEY, or the seed's per-role
 * PLANNER_MODEL_CONFIG, ... variables) real models play every role and the Researcher can search
 * Wikipedia; without one, scripted role answers play them offline. Either way the whole tree is
 * written to a JSON file (first argument, default tot-coordinated-tree.json).
 */
import { configuredModel, configureModelHint, type Tool, tool, writeFileAtomic } from '@swarm/core';
import { type CoordinatedModels, CoordinatedTreeOfThoughts, modelsFromEnv } from '@swarm/tot';
import { z } from 'zod';
import { offlineTeam } from './offline-team.js';

const question = 'How could a town of 20,000 people halve its carbon emissions within ten years?';
const out = process.argv[2] ?? 'tot-coordinated-tree.json';

// Emissions of the (fictional) town by sector: what the offline Researcher looks up.
const townData = tool({
  name: 'town_data',
  description: "Looks up the town's emissions inventory and travel survey.",
  parameters: z.object({ topic: z.string().describe('What to look up.') }),
  execute: () =>
    'buildings 41% (mostly gas heating in pre-1980 houses), transport 33% (62% of car trips under 5 km), waste 9%, other 17%.',
});

// A web search the Researcher can use with a real model: Wikipedia's public search API, no key needed.
const wikipediaSearch = tool({
  name: 'wikipedia_search',
  description: 'Searches Wikipedia and returns the best matching article titles and snippets.',
  parameters: z.object({ query: z.string().describe('Search terms.') }),
  execute: async ({ query }, ctx) => {
    const url = `https://en.wikipedia.org/w/api.php?action=query&list=search&format=json&srlimit=3&srsearch=${encodeURIComponent(query)}`;
    const response = await fetch(url, { ...(ctx.signal && { signal: ctx.signal }) });
    if (!response.ok) throw new Error(`Wikipedia answered ${response.status}`);
    const body = (await response.json()) as { query?: { search?: { title: string; snippet: string }[] } };
    const hits = body.query?.search ?? [];
    return hits.map((h) => `${h.title}: ${h.snippet.replace(/<[^>]+>/g, '')}`).join('\n') || 'No results.';
  },
});

const fromEnv = modelsFromEnv();
const model = configuredModel();
const online = model !== undefined || Object.keys(fromEnv).length > 0;

let models: CoordinatedModels;
let researchTools: Tool[];
if (online) {
  models = fromEnv;
  researchTools = process.env.TOT_RESEARCH === 'off' ? [] : [wikipediaSearch];
} else {
  console.log('No model configured: scripted role answers play the team offline.');
  console.log(`To let models explore: ${configureModelHint}`);
  console.log('Or give each role its own model as in the seed: PLANNER_MODEL_CONFIG=openai:gpt-5.4, ...\n');
  models = offlineTeam();
  researchTools = [townData];
}

const tot = new CoordinatedTreeOfThoughts({
  models,
  ...(model !== undefined && fromEnv.coordinator === undefined && { model }),
  researchTools,
  maxDepth: 3,
  beamWidth: 2,
});

const result = await tot.run(question, {
  onEvent: (event) => {
    if (event.type === 'tot.node' && event.change !== 'status') {
      const mark = event.change === 'rejected' ? `rejected (${event.reason})` : 'added';
      console.log(`  ${String(event.nodeId).padEnd(10)} ${mark}: ${event.thought}`);
    }
    if (event.type === 'tot.evaluate') {
      console.log(
        `  ${String(event.nodeId).padEnd(10)} scored ${Number(event.score).toFixed(1)}${event.terminate ? ', stop' : ''}`,
      );
    }
  },
});

await writeFileAtomic(out, `${JSON.stringify(result, null, 2)}\n`);

console.log(`\nQuestion: ${question}\n`);
console.log(`Answer:\n${result.answer}\n`);
console.log(`Synthesized from (${result.synthesisBasis}):`);
for (const node of result.synthesized) console.log(`  ${node.score.toFixed(1)}  ${node.path.join(' > ')}`);
console.log(
  `\nExploration ended by: ${result.endedBy}; ${result.nodeCount} nodes; research: ${result.researched ? 'on' : 'off'}`,
);
for (const [role, cost] of Object.entries(result.roles)) {
  console.log(
    `  ${role.padEnd(12)} ${String(cost.llmCalls).padStart(3)} calls ${String(cost.usage.totalTokens).padStart(7)} tokens`,
  );
}
console.log(
  `  ${'total'.padEnd(12)} ${String(result.llmCalls).padStart(3)} calls ${String(result.usage.totalTokens).padStart(7)} tokens`,
);
console.log(`\nThe whole tree, with every status, score, finding and evaluation: ${out}`);
