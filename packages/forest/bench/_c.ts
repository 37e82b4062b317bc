import { cosineSimilarity, localEmbedder } from '@swarm/embeddings';
import { referenceTexts } from '../src/reference-texts.js';
import { routingSet, routingBenchmark } from '../src/test-helpers.js';
const e = localEmbedder();
for (const set of [routingSet.trees, routingBenchmark.trees]) {
  const agents = set.flatMap((t) => t.agents);
  const av = await e.embed(agents.map((a) => a.systemPrompt));
  const rv = await e.embed([...referenceTexts]);
  const all: number[] = [];
  agents.forEach((a, i) => {
    const s = rv.map((r) => cosineSimilarity(av[i]!, r)).sort((x, y) => y - x);
    all.push(...s);
    console.log(a.name.padEnd(22), s.slice(0, 4).map((x) => x.toFixed(3)).join(' '), 'argmax', referenceTexts[rv.findIndex((r) => cosineSimilarity(av[i]!, r) === s[0])]);
  });
  const m = all.reduce((a, b) => a + b) / all.length; const sd = Math.sqrt(all.reduce((a, b) => a + (b - m) ** 2, 0) / all.length);
  all.sort((x, y) => y - x);
  console.log('mean', m.toFixed(3), 'sd', sd.toFixed(3), 'q99', all[Math.floor(all.length * 0.01)]!.toFixed(3), 'q95', all[Math.floor(all.length * 0.05)]!.toFixed(3));
}
