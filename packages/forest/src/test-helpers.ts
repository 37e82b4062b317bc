import { readFileSync } from 'node:fs';
import type { ModelLike } from '@swarm/core';
import type { Embedder } from '@swarm/embeddings';
import { localEmbedder } from '@swarm/embeddings';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/** The labelled routing set kept in `__fixtures__/routing-set.json`. */
export interface RoutingSet {
  trees: { name: string; agents: { name: string; systemPrompt: string }[] }[];
  tasks: { task: string; agent: string }[];
  unrelated: string[];
}

export const routingSet: RoutingSet = JSON.parse(
  readFileSync(new URL('./__fixtures__/routing-set.json', import.meta.url), 'utf8'),
);

/** The routing set's trees, every agent answering with a model built by `modelFor`. */
export function routingTrees(modelFor: (agent: string) => ModelLike): Tree[] {
  return routingSet.trees.map(
    (tree) =>
      new Tree({
        name: tree.name,
        agents: tree.agents.map((agent) => new TreeAgent({ ...agent, model: modelFor(agent.name) })),
      }),
  );
}

/** The local embedder, wrapped to record every batch it is asked to embed. */
export function countingEmbedder(inner: Embedder = localEmbedder()) {
  const calls: string[][] = [];
  const embedder: Embedder = {
    id: `counting(${inner.id})`,
    ...(inner.maxBatchSize !== undefined && { maxBatchSize: inner.maxBatchSize }),
    async embed(texts, options) {
      calls.push([...texts]);
      return inner.embed(texts, options);
    },
  };
  return { embedder, calls };
}
