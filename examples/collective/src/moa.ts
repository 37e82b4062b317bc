// MixtureOfAgents (seed 001, section 3): three analysts answer in two layers, the second seeing the
// first's answers; an aggregator answers the question from the last layer.
import { MixtureOfAgents } from '@swarm/collective';
import { Agent } from '@swarm/core';
import { agentOf, exampleModel } from './model.js';

const model = exampleModel((request) => {
  const layer = request.messages.length > 1 ? 2 : 1;
  const who = agentOf(request);
  if (who === 'editor')
    return 'Lead with the index fund: low fees and broad diversification beat stock picking for most savers.';
  const refined =
    layer === 2 ? ' Having read the others: index funds first, stock picking only with play money.' : '';
  return `${who} (layer ${layer}): ${who === 'economist' ? 'Fees compound; index funds win on cost.' : who === 'quant' ? 'Active funds rarely beat the index after fees.' : 'Diversify, keep costs low.'}${refined}`;
});

const moa = new MixtureOfAgents({
  agents: [
    new Agent({ name: 'economist', instructions: 'You are an economist.', model }),
    new Agent({ name: 'quant', instructions: 'You are a quantitative analyst.', model }),
    new Agent({ name: 'planner', instructions: 'You are a financial planner.', model }),
  ],
  aggregator: new Agent({ name: 'editor', instructions: 'You write the final, clear answer.', model }),
  layers: 2,
});

async function main(): Promise<void> {
  const result = await moa.run('Should a first-time saver buy an index fund or pick stocks?');
  result.layers.forEach((layer, i) => {
    console.log(`Layer ${i + 1}:`);
    for (const a of layer) console.log(`  ${a.agent}: ${'output' in a ? a.output : `failed: ${a.error}`}`);
  });
  console.log(`\nAnswer:\n${result.output}\n\n(${result.llmCalls} model calls)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
