import { ForestSwarm } from '../src/index.js';
import { routingSet, routingTrees } from '../src/test-helpers.js';
const forest = new ForestSwarm({ trees: routingTrees(() => 'openai:unused') });
const s = await forest.routeAll(routingSet.tasks.map((t) => t.task));
const bad = routingSet.tasks.filter((t, i) => !(s[i]!.status === 'fulfilled' && (s[i] as any).value.agent === t.agent));
console.log('48-set', routingSet.tasks.length - bad.length, '/', routingSet.tasks.length, bad.map((b) => b.task).join(' | '));
const u = await forest.routeAll(routingSet.unrelated);
console.log('unrelated rejected', u.filter((x) => x.status === 'rejected').length, '/', u.length);
