import { mockProviderServer } from '@swarm/core/testing';
import { openaiEmbedder } from '@swarm/embeddings';
import { ForestSwarm } from '../src/index.js';
import { benchmarkTrees, scoreBenchmark } from '../src/test-helpers.js';
const show = (label: string, r: Awaited<ReturnType<typeof scoreBenchmark>>) => {
  console.log(label, 'acc', (r.accuracy * 100).toFixed(1), 'rej', (r.rejection * 100).toFixed(1));
  if (process.env.V) for (const m of r.misses) console.log('   ', m.task, '| want', m.expected, '| got', m.got);
};
show('local', await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees() })));
const server = await mockProviderServer();
const emb = openaiEmbedder('text-embedding-3-small', { apiKey: 'test', baseURL: server.openaiBaseURL });
show('mock', await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees(), embedder: emb })));
await server.close();
