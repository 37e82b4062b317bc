import { ConfigError } from '@swarm/core';
import { type Embedder, localEmbedder } from '@swarm/embeddings';
import { describe, expect, it } from 'vitest';
import { ForestSwarm } from './forest-swarm.js';
import { countingEmbedder, homePrompts } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

const agent = (name: string, systemPrompt: string) =>
  new TreeAgent({ name, systemPrompt, model: 'openai:unused' });

/** Agents whose prompts hold words with other everyday senses ("train", "tree"); not the benchmark's. */
function homeForest(options: { senseCheck?: boolean; embedder?: Embedder } = {}) {
  return new ForestSwarm({
    trees: [
      new Tree({
        name: 'Home',
        agents: [agent('Dog Trainer', homePrompts.dogTrainer), agent('Gardener', homePrompts.gardener)],
      }),
    ],
    ...options,
  });
}

const outcome = async (forest: ForestSwarm, task: string) => {
  const [settled] = await forest.routeAll([task]);
  return settled!.status === 'fulfilled' ? settled!.value.agent : 'no route';
};

describe('the sense check of one-word keyword evidence', () => {
  it('rejects a task that shares one word with a prompt in another sense', async () => {
    const forest = homeForest();
    await expect(forest.route('How do I train for a marathon?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
    await expect(forest.route('Explain a binary search tree.')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
  });

  it('routes the same word in the sense of the prompt, and records the check in the decision', async () => {
    const forest = homeForest();
    const decision = await forest.route('How do I train my puppy to stop pulling?');
    expect(decision).toMatchObject({ agent: 'Dog Trainer', keywordMatches: ['trainer'] });
    expect(decision.sense!.similarity).toBeGreaterThanOrEqual(decision.sense!.threshold);
    const tree = await forest.route('What is the best tree for a small backyard?');
    expect(tree).toMatchObject({ agent: 'Gardener', rule: 'keyword', keywordMatches: ['trees'] });
    expect(tree.sense!.similarity).toBeGreaterThanOrEqual(tree.sense!.threshold);
  });

  it('does not apply to evidence of two or more words', async () => {
    const decision = await homeForest().route('My dog keeps barking at the neighbours.');
    expect(decision.agent).toBe('Dog Trainer');
    expect(decision.keywordMatches).toEqual(['dog', 'barking']);
    expect(decision.sense).toBeUndefined();
  });

  it('is independent of the embedder: a hashing embedder without n-grams decides the same', async () => {
    const hashing = localEmbedder({ dimensions: 64, charNgrams: false });
    const tasks = [
      'How do I train for a marathon?',
      'Explain a binary search tree.',
      'How do I train my puppy to stop pulling?',
      'What is the best tree for a small backyard?',
    ];
    const decide = async (forest: ForestSwarm) => Promise.all(tasks.map((task) => outcome(forest, task)));
    const expected = ['no route', 'no route', 'Dog Trainer', 'Gardener'];
    expect(await decide(homeForest())).toEqual(expected);
    expect(await decide(homeForest({ embedder: hashing }))).toEqual(expected);
  });

  it('is turned off with senseCheck: false, which routes by the shared word as before', async () => {
    const forest = homeForest({ senseCheck: false });
    expect(await outcome(forest, 'How do I train for a marathon?')).toBe('Dog Trainer');
    expect(await outcome(forest, 'Explain a binary search tree.')).toBe('Gardener');
    expect((await forest.route('What is the best tree for a small backyard?')).sense).toBeUndefined();
  });

  it('does not apply to a name or an acronym as the prompt writes it (one sense)', async () => {
    const forest = new ForestSwarm({
      trees: [
        new Tree({
          name: 'Web',
          agents: [
            agent('Frontend Developer', 'I build web interfaces with React components and CSS layouts.'),
          ],
        }),
      ],
    });
    const decision = await forest.route('How do I center a div with CSS?');
    expect(decision).toMatchObject({ agent: 'Frontend Developer', keywordMatches: ['css'] });
    expect(decision.sense).toBeUndefined();
  });

  it('makes no embedding call of its own: the word vectors come with @swarm/embeddings', async () => {
    const { embedder, calls } = countingEmbedder();
    const forest = homeForest({ embedder });
    await forest.routeAll(['How do I train for a marathon?', 'How do I train my puppy to stop pulling?']);
    // The prompts with the reference texts, then one call with the tasks and, since the rejected
    // word now counts as weak, the remainder that context agreement compares.
    expect(calls).toEqual([
      expect.any(Array),
      [
        'How do I train for a marathon?',
        'How do I train my puppy to stop pulling?',
        'How do I for a marathon?',
      ],
    ]);
    expect(calls[0]).toHaveLength(2 + 32);
  });

  it("applies with routing: 'first': a first agent failing the check gives way to the next relevant one", async () => {
    const trees = [
      new Tree({
        name: 'Coaches',
        agents: [
          agent('Dog Trainer', homePrompts.dogTrainer),
          agent(
            'Running Coach',
            'I coach runners: marathon plans, pacing, running shoes and race nutrition.',
          ),
        ],
      }),
    ];
    const task = 'How do I train for a marathon?';
    const first = await new ForestSwarm({ trees, routing: 'first' }).route(task);
    expect(first).toMatchObject({ agent: 'Running Coach', strategy: 'first' });
    expect(first.runnerUp).toMatchObject({ agent: 'Dog Trainer', keywordMatches: ['trainer'] });
    expect(first.runnerUp!.sense!.similarity).toBeLessThan(first.runnerUp!.sense!.threshold);
    // Without the check the first agent in order takes it on the one shared word.
    const lexical = new ForestSwarm({ trees, routing: 'first', senseCheck: false });
    expect((await lexical.route(task)).agent).toBe('Dog Trainer');
  });

  it('is honoured the same way by Tree.findRelevantAgent and TreeAgent.isRelevantForTask', async () => {
    const trainer = agent('Dog Trainer', homePrompts.dogTrainer);
    const tree = new Tree({ name: 'Home', agents: [trainer] });
    const offTopic = 'How do I train for a marathon?';
    const inDomain = 'How do I train my puppy to stop pulling?';
    expect(await tree.findRelevantAgent(offTopic)).toBeUndefined();
    expect(await tree.findRelevantAgent(offTopic, { routing: 'first' })).toBeUndefined();
    expect(await tree.findRelevantAgent(offTopic, { senseCheck: false })).toBe(trainer);
    expect(await tree.findRelevantAgent(inDomain)).toBe(trainer);
    expect(await trainer.isRelevantForTask(offTopic)).toBe(false);
    expect(await trainer.isRelevantForTask(offTopic, 'auto', { senseCheck: false })).toBe(true);
    expect(await trainer.isRelevantForTask(inDomain)).toBe(true);
    await expect(
      tree.findRelevantAgent(offTopic, { senseCheck: 'no' as unknown as boolean }),
    ).rejects.toThrow(/Tree "Home": senseCheck must be true or false/);
    await expect(
      trainer.isRelevantForTask(offTopic, 'auto', { senseCheck: 1 as unknown as boolean }),
    ).rejects.toThrow(ConfigError);
  });

  it('checks only evidence that is relevant: a qualifier alone is weak already and gets no check', async () => {
    // "flower" only qualifies "beds" in the gardener's prompt: it weighs 0.4, below the keyword rule.
    const forest = new ForestSwarm({
      trees: homeForest().trees as Tree[],
      fallback: agent('Receptionist', 'I answer everything else.'),
    });
    const decision = await forest.route('What flower should I buy for a birthday?');
    expect(decision.rule).toBe('fallback');
    expect(decision.runnerUp).toMatchObject({ agent: 'Gardener', keywordMatches: ['flower'] });
    expect(decision.runnerUp!.sense).toBeUndefined();
  });

  it('does not check a word the word vectors do not know: the keyword counts as it is', async () => {
    const forest = new ForestSwarm({
      trees: [
        new Tree({
          name: 'Garden',
          agents: [
            agent('Gardener', 'I am a gardener. I care for lawns and hedges, and I shape topiary.'),
            agent('Plumber', 'I am a plumber. I fix leaking pipes, taps and toilets.'),
          ],
        }),
      ],
    });
    const decision = await forest.route('Is topiary hard to learn?');
    expect(decision).toMatchObject({ agent: 'Gardener', keywordMatches: ['topiary'] });
    expect(decision.sense).toBeUndefined();
  });

  it('compares task and prompt without generic words, as the forest embedder does', async () => {
    const forest = homeForest();
    const plain = await forest.route('How do I train my puppy to stop pulling?');
    const wordy = await forest.route(
      'How do I train my puppy to stop pulling? I need expert help and knowledge.',
    );
    expect(wordy.agent).toBe('Dog Trainer');
    expect(wordy.sense).toEqual(plain.sense);
  });

  it("keeps each agent's own threshold for the same shared word", async () => {
    const trainer = agent('Dog Trainer', homePrompts.dogTrainer);
    const rail = agent('Rail Planner', 'I plan rail journeys: tickets, timetables, stations and trains.');
    const both = new ForestSwarm({
      trees: [new Tree({ name: 'Mixed', agents: [trainer, rail] })],
      fallback: agent('Receptionist', 'I answer everything else.'),
    });
    const alone = new ForestSwarm({ trees: [new Tree({ name: 'Rail', agents: [rail] })] });
    const task = 'Which train should I take to Paris?';
    const [decision, own] = [await both.route(task), await alone.route(task)];
    const railSense = decision.agent === 'Rail Planner' ? decision.sense : decision.runnerUp?.sense;
    const trainerSense = decision.agent === 'Dog Trainer' ? decision.sense : decision.runnerUp?.sense;
    expect(railSense).toBeDefined();
    expect(trainerSense).toBeDefined();
    // The threshold depends on the agent's prompt only, not on the other agents or the order checked.
    expect(railSense!.threshold).toBe(own.sense!.threshold);
    expect(trainerSense!.threshold).not.toBe(railSense!.threshold);
  });

  it('checks one given keyword alone like an extracted one', async () => {
    const trainer = new TreeAgent({
      name: 'Dog Trainer',
      systemPrompt: 'I am a dog trainer. I teach obedience and recall.',
      keywords: ['train', 'dog'],
      model: 'openai:unused',
    });
    const forest = (senseCheck: boolean) =>
      new ForestSwarm({ trees: [new Tree({ name: 'Home', agents: [trainer] })], senseCheck });
    await expect(forest(true).route('How do I train for a marathon?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
    expect((await forest(false).route('How do I train for a marathon?')).agent).toBe('Dog Trainer');
    expect((await forest(true).route('How do I train my puppy to sit?')).agent).toBe('Dog Trainer');
  });

  it('rejects a senseCheck that is not a boolean', () => {
    expect(() => homeForest({ senseCheck: 'yes' as unknown as boolean })).toThrow(ConfigError);
    expect(() => homeForest({ senseCheck: 'yes' as unknown as boolean })).toThrow(
      /senseCheck must be true or false/,
    );
  });
});
