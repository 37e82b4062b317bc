import { ForestSwarm } from '../src/index.js';
import { benchmarkTrees, routingBenchmark } from '../src/test-helpers.js';
const f = new ForestSwarm({ trees: benchmarkTrees(), threshold: -1 });
const fa = new ForestSwarm({ trees: benchmarkTrees() });
const all = [...routingBenchmark.inDomain.map((t) => ({ ...t, off: false })), ...routingBenchmark.offTopic.map((t) => ({ task: t.task, agent: '', off: true }))];
const r = await f.routeAll(all.map((t) => t.task));
const ra = await fa.routeAll(all.map((t) => t.task));
all.forEach((t, i) => {
  const s = r[i]!; const a = ra[i]!;
  if (s.status !== 'fulfilled') return;
  const d = s.value;
  const th = a.status === 'fulfilled' ? a.value.threshold : (a.reason as any).message.match(/threshold ([\d.]+)/)?.[1];
  console.log(t.off ? 'OFF' : (d.agent === t.agent ? 'ok ' : 'BAD'), d.agent.padEnd(18), 'sim', d.similarity.toFixed(3), 'kw', d.keywordScore.toFixed(2), JSON.stringify(d.keywordMatches), 'th', th, '|', t.task);
});
