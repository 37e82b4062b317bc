import type { Embedder } from '@swarm/embeddings';
import { tokenize } from '@swarm/embeddings';
import { describe, expect, it } from 'vitest';
import { withoutWords } from './agent-router.js';
import { ForestSwarm } from './forest-swarm.js';
import { benchmarkTrees } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/**
 * A tiny "semantic" embedder: each known word adds 1 to its topic's dimension (unknown words add
 * nothing), so "flicker" is electrical although no prompt contains it, as with a hosted embedder.
 */
function topicEmbedder(): { embedder: Embedder; calls: string[][] } {
  const topics: Record<string, number> = {
    light: 0,
    lights: 0,
    fixtures: 0,
    ceiling: 0,
    fans: 0,
    flicker: 0,
    lawns: 1,
    compost: 1,
    painted: 2,
    chapel: 2,
  };
  const calls: string[][] = [];
  const embedder: Embedder = {
    id: 'topics',
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => {
        const vector = new Float32Array(4);
        for (const word of tokenize(text)) {
          const topic = topics[word];
          if (topic !== undefined) vector[topic]! += 1;
        }
        return vector;
      });
    },
  };
  return { embedder, calls };
}

function homeForest(embedder: Embedder) {
  const agent = (name: string, systemPrompt: string) =>
    new TreeAgent({ name, systemPrompt, model: 'openai:unused' });
  return new ForestSwarm({
    embedder,
    threshold: 0.3,
    trees: [
      new Tree({
        name: 'Home',
        agents: [
          agent('Electrician', 'I install light fixtures and ceiling fans.'),
          agent('Gardener', 'I care for lawns and compost.'),
        ],
      }),
    ],
  });
}

describe('context agreement', () => {
  it('keeps a similarity route when the rest of the task still points to the agent', async () => {
    // "lights" only qualifies "fixtures" in the prompt (weight 0.4: no keyword route), but
    // "flicker" is electrical too: without "lights" the task is still the electrician's.
    const decision = await homeForest(topicEmbedder().embedder).route('The lights flicker at night.');
    expect(decision).toMatchObject({ agent: 'Electrician', rule: 'similarity', keywordMatches: ['light'] });
  });

  it('drops a similarity route that hinged on one weak shared word', async () => {
    const { embedder } = topicEmbedder();
    const forest = homeForest(embedder);
    // With "ceiling", the task is 0.45 similar to the electrician (threshold 0.3); without it, 0.
    const [vector] = await embedder.embed(['Who painted the ceiling of the chapel?']);
    expect(vector![0]! / Math.hypot(...vector!)).toBeGreaterThan(0.3);
    await expect(forest.route('Who painted the ceiling of the chapel?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
  });

  it('embeds the remainders in the same call as the tasks', async () => {
    const { embedder, calls } = topicEmbedder();
    await homeForest(embedder).routeAll(['The lights flicker at night.', 'Where do I put compost?']);
    expect(calls).toEqual([
      ['I install light fixtures and ceiling fans.', 'I care for lawns and compost.'],
      // "compost" is a full keyword of the gardener: that task needs no remainder.
      ['The lights flicker at night.', 'Where do I put compost?', 'The flicker at night.'],
    ]);
  });

  it('rejects trivia that shares only a qualifier with a prompt, with the default embedder', async () => {
    const forest = new ForestSwarm({ trees: benchmarkTrees() });
    // Before the rule, similarity alone sent these to the electrician ("ceiling fans") and the
    // tax advisor ("capital gains tax").
    const settled = await forest.routeAll([
      'Who painted the ceiling of the Sistine Chapel?',
      'What is the capital of Australia?',
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    await expect(forest.route('How do I install a new ceiling fan?')).resolves.toMatchObject({
      agent: 'Electrician',
    });
  });
});

describe('withoutWords', () => {
  it('removes every form of the given words, keeping the rest as written', () => {
    expect(withoutWords('The Lights flicker; a light bulb.', ['light'])).toBe('The flicker; a bulb.');
    expect(withoutWords('Taxes and tax returns', ['tax', 'returns'])).toBe('and');
  });

  it('returns an empty string when no word is left', () => {
    expect(withoutWords('Ceiling?', ['ceiling'])).toBe('');
  });
});
