import { respond, ScriptedModel } from '@swarm/core/testing';
import { tokenize } from '@swarm/embeddings';
import { describe, expect, it } from 'vitest';
import { ForestSwarm } from './forest-swarm.js';
import { referenceTexts } from './reference-texts.js';
import { stem } from './stem.js';
import { countingEmbedder, routingSet, routingTrees } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

describe('routing the labelled set with the local embedder', () => {
  it('routes at least 90% of the labelled tasks to their labelled agent', async () => {
    const forest = new ForestSwarm({ trees: routingTrees(() => 'openai:unused') });
    const settled = await forest.routeAll(routingSet.tasks.map((t) => t.task));
    const correct = settled.filter(
      (s, i) => s.status === 'fulfilled' && s.value.agent === routingSet.tasks[i]!.agent,
    ).length;
    const accuracy = correct / routingSet.tasks.length;
    expect(routingSet.tasks.length).toBeGreaterThanOrEqual(40);
    expect(routingSet.trees.flatMap((t) => t.agents).length).toBeGreaterThanOrEqual(8);
    // Measured: 47 of 48 (97.9%).
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('answers tasks no specialist covers with NoRouteError, not with a random agent', async () => {
    const forest = new ForestSwarm({ trees: routingTrees(() => 'openai:unused') });
    const settled = await forest.routeAll(routingSet.unrelated);
    for (const s of settled) {
      expect(s.status).toBe('rejected');
      if (s.status === 'rejected') expect(s.reason).toMatchObject({ name: 'NoRouteError', code: 'NO_ROUTE' });
    }
  });

  it('no longer lets the "I am a tax expert" stop-word trap capture unrelated tasks', async () => {
    const taxExpert = new TreeAgent({
      name: 'Tax Expert',
      systemPrompt: 'I am a tax expert',
      model: 'openai:unused',
    });
    const chef = new TreeAgent({
      name: 'Chef',
      systemPrompt: 'I am a chef who cooks Italian pasta, risotto and dessert recipes',
      model: 'openai:unused',
    });
    // The seed's substring check matched "i" and "a" in both of these tasks.
    const unrelated = 'What is a good pasta recipe for a dinner party?';
    expect(taxExpert.keywords).toEqual(['tax', 'expert']);
    await expect(taxExpert.isRelevantForTask(unrelated)).resolves.toBe(false);
    await expect(taxExpert.isRelevantForTask('I need help with my tax return')).resolves.toBe(true);

    const forest = new ForestSwarm({
      trees: [new Tree({ name: 'Mixed', agents: [taxExpert, chef] })],
      routing: 'first',
    });
    await expect(forest.route(unrelated)).resolves.toMatchObject({ agent: 'Chef' });
    await expect(forest.route('Is it raining in Lisbon today?')).rejects.toMatchObject({
      name: 'NoRouteError',
    });
  });

  it('makes exactly one embedding call for all agent prompts and one per batchedRun', async () => {
    const { embedder, calls } = countingEmbedder();
    const answering = (name: string) => new ScriptedModel([], { fallback: respond(() => `${name} answers`) });
    const forest = new ForestSwarm({ trees: routingTrees(answering), embedder });
    const agents = routingSet.trees.flatMap((t) => t.agents);
    expect(calls).toHaveLength(0); // nothing is embedded when the forest is built

    const tasks = routingSet.tasks.map((t) => t.task);
    const settled = await forest.batchedRun(tasks, { maxWorkers: 8 });
    expect(settled.filter((s) => s.status === 'fulfilled').length).toBeGreaterThanOrEqual(0.9 * tasks.length);
    expect(calls).toHaveLength(2);
    // One call for every agent prompt, followed by the reference texts that calibrate the thresholds.
    expect(calls[0]).toEqual([...agents.map((a) => a.systemPrompt), ...referenceTexts]);
    // The tasks, then (context agreement) each task without the words it shares weakly with an agent.
    expect(calls[1]!.slice(0, tasks.length)).toEqual(tasks);
    const stems = (text: string) => new Set(tokenize(text).map(stem));
    for (const remainder of calls[1]!.slice(tasks.length)) {
      const words = stems(remainder);
      expect(
        tasks.some((task) => [...words].every((w) => stems(task).has(w)) && stems(task).size > words.size),
      ).toBe(true);
    }

    const more = ['How do I fix my React layout?', 'Which index speeds up this SQL query?'];
    await forest.batchedRun(more);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual(more);
  });
});
