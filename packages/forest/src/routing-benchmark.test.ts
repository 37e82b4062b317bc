import { mockProviderServer } from '@swarm/core/testing';
import { type Embedder, openaiEmbedder } from '@swarm/embeddings';
import { describe, expect, it } from 'vitest';
import { forestLocalEmbedder } from './default-embedder.js';
import { ForestSwarm } from './forest-swarm.js';
import { benchmarkTrees, countingEmbedder, routingBenchmark, scoreBenchmark } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/** The seed's six financial agents, prompts verbatim, in its two trees. */
function seedForest(options: Partial<ConstructorParameters<typeof ForestSwarm>[0]> = {}) {
  const agent = (name: string, systemPrompt: string) =>
    new TreeAgent({ name, systemPrompt, model: 'openai:unused' });
  return new ForestSwarm({
    trees: [
      new Tree({
        name: 'Financial Services Tree',
        agents: [
          agent(
            'Financial Advisor',
            'I am a financial advisor specializing in investment planning, retirement strategies, and tax optimization for individuals and businesses.',
          ),
          agent(
            'Tax Expert',
            'I am a tax expert with deep knowledge of corporate taxation, Delaware incorporation benefits, and free tax filing options for businesses.',
          ),
          agent(
            'Retirement Planner',
            'I am a retirement planning specialist who helps individuals and businesses create comprehensive retirement strategies and investment plans.',
          ),
        ],
      }),
      new Tree({
        name: 'Investment & Trading Tree',
        agents: [
          agent(
            'Stock Analyst',
            'I am a stock market analyst who provides insights on market trends, stock recommendations, and portfolio optimization strategies.',
          ),
          agent(
            'Investment Strategist',
            'I am an investment strategist specializing in portfolio diversification, risk management, and market analysis.',
          ),
          agent(
            'ROTH IRA Specialist',
            'I am a ROTH IRA specialist who helps individuals optimize their retirement accounts and tax advantages.',
          ),
        ],
      }),
    ],
    ...options,
  });
}

/**
 * The local embedder's vectors with a large extra component shared by every text: every cosine
 * becomes `0.8 + 0.2 x` the local one, as with hosted embedders, whose unrelated texts score high.
 * (A text of stop words alone, a zero vector locally, gets a second extra component instead, so
 * that it too is 0.8 from every other text.)
 */
function shiftedEmbedder(inner: Embedder = forestLocalEmbedder()): Embedder {
  return {
    id: `shifted(${inner.id})`,
    async embed(texts, options) {
      return (await inner.embed(texts, options)).map((vector) => {
        const shifted = new Float32Array(vector.length + 2);
        shifted.set(vector);
        shifted[vector.length] = 2;
        if (vector.every((x) => x === 0)) shifted[vector.length + 1] = 1;
        return shifted;
      });
    },
  };
}

describe('routing benchmark (routing-benchmark.json) with the local embedder', () => {
  it('is large and varied enough to mean something', () => {
    expect(routingBenchmark.trees.length).toBeGreaterThanOrEqual(3);
    expect(routingBenchmark.inDomain.length).toBeGreaterThanOrEqual(60);
    expect(routingBenchmark.offTopic.length).toBeGreaterThanOrEqual(30);
    expect(new Set(routingBenchmark.offTopic.map((t) => t.kind)).size).toBeGreaterThanOrEqual(5);
  });

  it('routes at least 98% of in-domain tasks right and rejects at least 95% of off-topic ones', async () => {
    const score = await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees() }));
    // Measured: 71 of 72 in-domain (98.6%), 39 of 40 off-topic (97.5%). Before the sense check:
    // 69 of 72 and 31 of 40 (the misses shared one topical word with a prompt in another sense).
    expect(score.accuracy).toBeGreaterThanOrEqual(0.98);
    expect(score.rejection).toBeGreaterThanOrEqual(0.95);
    // Without the sense check the shared-word tasks come back.
    const lexical = await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees(), senseCheck: false }));
    expect(lexical.rejection).toBeLessThan(0.8);
  });

  it('reaches the same floors with the OpenAI-compatible embedder on the mock server (word hashing)', async () => {
    const server = await mockProviderServer();
    try {
      const embedder = openaiEmbedder('text-embedding-3-small', {
        apiKey: 'test',
        baseURL: server.openaiBaseURL,
      });
      const score = await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees(), embedder }));
      // Measured: 71 of 72 in-domain, 39 of 40 off-topic.
      expect(score.accuracy).toBeGreaterThanOrEqual(0.98);
      expect(score.rejection).toBeGreaterThanOrEqual(0.95);
    } finally {
      await server.close();
    }
  });

  it('rejects every small-talk, creative and generic-words task', async () => {
    const forest = new ForestSwarm({ trees: benchmarkTrees() });
    const tasks = routingBenchmark.offTopic.filter((t) =>
      ['small talk', 'creative', 'generic words'].includes(t.kind),
    );
    const settled = await forest.routeAll(tasks.map((t) => t.task));
    expect(settled.filter((s) => s.status === 'fulfilled').map((s, i) => [tasks[i]!.task, s])).toEqual([]);
  });

  it('makes the same decisions when every similarity is moved to 0.8 + 0.2 x, and a fixed threshold does not', async () => {
    const local = await scoreBenchmark(new ForestSwarm({ trees: benchmarkTrees() }));
    const shifted = await scoreBenchmark(
      new ForestSwarm({ trees: benchmarkTrees(), embedder: shiftedEmbedder() }),
    );
    expect(shifted).toEqual(local);
    // The old fixed threshold, tuned to the local scale, lets every off-topic task through.
    const fixed = await scoreBenchmark(
      new ForestSwarm({ trees: benchmarkTrees(), embedder: shiftedEmbedder(), threshold: 0.07 }),
    );
    expect(fixed.rejection).toBe(0);
  });
});

describe("the seed's six financial agents", () => {
  it('give no specialist for "How deep is the Pacific Ocean?" or "Who helps individuals learn guitar?"', async () => {
    const forest = seedForest();
    await expect(forest.route('How deep is the Pacific Ocean?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
    await expect(forest.route('Who helps individuals learn guitar?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
  });

  it("still routes the seed's own example tasks, saying which rule fired", async () => {
    const settled = await seedForest().routeAll([
      'Our company is incorporated in Delaware, how do we do our taxes for free?',
      'What are the best investment strategies for retirement?',
      'How do I file taxes for my Delaware corporation?',
      "What's the current market outlook for tech stocks?",
    ]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? [s.value.agent, s.value.rule] : s.reason))).toEqual(
      [
        ['Tax Expert', 'keyword+similarity'],
        ['Retirement Planner', 'keyword+similarity'],
        ['Tax Expert', 'keyword+similarity'],
        ['Stock Analyst', 'keyword+similarity'],
      ],
    );
  });

  it('embeds nothing for the agents after the first batch', async () => {
    const { embedder, calls } = countingEmbedder(forestLocalEmbedder());
    const forest = seedForest({ embedder });
    await forest.routeAll(['How do I file taxes for my Delaware corporation?']);
    await forest.routeAll(['What is a Roth conversion?', 'How deep is the Pacific Ocean?']);
    expect(calls.map((c) => c.length)).toEqual([6 + 32, 1, 2]);
  });
});
