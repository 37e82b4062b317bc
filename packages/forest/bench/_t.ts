import { TermIndex } from '../src/term-index.js';
import { benchmarkTrees } from '../src/test-helpers.js';
const agents = benchmarkTrees().flatMap((t) => t.agents);
const ti = new TermIndex(agents.map((a) => ({ keywords: a.keywords, given: false, text: a.routingText })));
for (const task of process.argv.slice(2)) console.log(task, [...ti.match(task)].map(([p, m]) => [agents[p]!.name, m]));
