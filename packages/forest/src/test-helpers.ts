import { readFileSync } from 'node:fs';
import type { ModelLike, Settled } from '@swarm/core';
import type { Embedder } from '@swarm/embeddings';
import { localEmbedder } from '@swarm/embeddings';
import type { RouteDecision } from './route-decision.js';
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

/** The routing benchmark kept in `__fixtures__/routing-benchmark.json`: in-domain and off-topic tasks. */
export interface RoutingBenchmark {
  trees: { name: string; agents: { name: string; systemPrompt: string }[] }[];
  inDomain: { task: string; agent: string }[];
  offTopic: { task: string; kind: string }[];
}

export const routingBenchmark: RoutingBenchmark = JSON.parse(
  readFileSync(new URL('./__fixtures__/routing-benchmark.json', import.meta.url), 'utf8'),
);

/** The benchmark's trees, every agent with the same (unused) model spec. */
export function benchmarkTrees(): Tree[] {
  return routingBenchmark.trees.map(
    (tree) =>
      new Tree({
        name: tree.name,
        agents: tree.agents.map((agent) => new TreeAgent({ ...agent, model: 'openai:unused' })),
      }),
  );
}

/** How a forest does on the benchmark: in-domain accuracy, off-topic rejection, and the misses. */
export interface BenchmarkScore {
  accuracy: number;
  rejection: number;
  /** In-domain tasks routed elsewhere (or nowhere), and off-topic tasks routed to an agent. */
  misses: { task: string; expected: string; got: string }[];
}

/** Routes every benchmark task through `forest.routeAll` and scores the decisions. */
export async function scoreBenchmark(forest: {
  routeAll(tasks: readonly string[]): Promise<Settled<RouteDecision>[]>;
}): Promise<BenchmarkScore> {
  const { inDomain, offTopic } = routingBenchmark;
  const routed = await forest.routeAll([...inDomain.map((t) => t.task), ...offTopic.map((t) => t.task)]);
  const got = (s: Settled<RouteDecision>) =>
    s.status === 'fulfilled' ? `${s.value.agent} (${s.value.rule})` : 'no route';
  const misses: BenchmarkScore['misses'] = [];
  let correct = 0;
  inDomain.forEach(({ task, agent }, i) => {
    const s = routed[i]!;
    if (s.status === 'fulfilled' && s.value.agent === agent) correct++;
    else misses.push({ task, expected: agent, got: got(s) });
  });
  let rejected = 0;
  offTopic.forEach(({ task }, i) => {
    const s = routed[inDomain.length + i]!;
    if (s.status === 'rejected') rejected++;
    else misses.push({ task, expected: 'no route', got: got(s) });
  });
  return { accuracy: correct / inDomain.length, rejection: rejected / offTopic.length, misses };
}

/** The sense-check tests' prompts: words with other everyday senses ("train", "tree"); not the benchmark's. */
export const homePrompts = {
  dogTrainer:
    'I am a dog trainer. I teach obedience, leash walking, house training and recall, and fix barking and biting.',
  gardener:
    'I am a gardener. I care for lawns, flower beds, hedges, trees and shrubs: pruning, mulching and weeding.',
};
