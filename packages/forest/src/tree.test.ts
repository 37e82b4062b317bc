import { ConfigError } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { countingEmbedder } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

const agent = (name: string, systemPrompt: string) =>
  new TreeAgent({ name, systemPrompt, model: new ScriptedModel() });

function financialTree(embedder = countingEmbedder().embedder) {
  return new Tree({
    name: 'Financial Services Tree',
    embedder,
    agents: [
      agent(
        'Financial Advisor',
        'I am a financial advisor for investment planning, retirement strategies and tax optimization.',
      ),
      agent(
        'Tax Expert',
        'I am a tax expert in corporate taxation, Delaware incorporation and free tax filing.',
      ),
      agent(
        'Retirement Planner',
        'I am a retirement planning specialist for retirement strategies and investment plans.',
      ),
    ],
  });
}

describe('Tree', () => {
  it('keeps the agents in the given order, which is their priority', () => {
    expect(financialTree().agents.map((a) => a.name)).toEqual([
      'Financial Advisor',
      'Tax Expert',
      'Retirement Planner',
    ]);
  });

  it('finds the best agent for a task, or the first relevant one in priority order', async () => {
    const tree = financialTree();
    const task = 'How do we file taxes for our Delaware corporation?';
    expect((await tree.findRelevantAgent(task))?.name).toBe('Tax Expert');
    expect((await tree.findRelevantAgent(task, { routing: 'first' }))?.name).toBe('Financial Advisor');
    await expect(tree.findRelevantAgent('Who painted the Mona Lisa?')).resolves.toBeUndefined();
    await expect(
      tree.findRelevantAgent('Who painted the Mona Lisa?', { threshold: -1 }),
    ).resolves.toBeDefined();
    await expect(tree.findRelevantAgent(task, { threshold: 2 })).rejects.toThrow(
      /Tree "Financial Services Tree": threshold must be a number from -1 to 1, or 'auto'/,
    );
  });

  it('measures each agent against the centroid and its nearest neighbour, with one embedding call', async () => {
    const { embedder, calls } = countingEmbedder();
    const distances = await financialTree(embedder).calculateAgentDistances();
    expect(distances.map((d) => d.agent)).toEqual(['Financial Advisor', 'Tax Expert', 'Retirement Planner']);
    expect(distances.find((d) => d.agent === 'Retirement Planner')?.nearest?.agent).toBe('Financial Advisor');
    for (const d of distances) expect(d.centroidDistance).toBeGreaterThanOrEqual(0);
    expect(calls).toHaveLength(1);
  });

  it('builds a TreeLog record of an execution', () => {
    const tree = financialTree();
    const log = tree.logTreeExecution('a task', tree.agents[1]!, 'the answer');
    expect(log).toMatchObject({
      treeName: 'Financial Services Tree',
      task: 'a task',
      selectedAgent: 'Tax Expert',
      result: 'the answer',
    });
    expect(typeof log.logId).toBe('string');
  });

  it('rejects an empty tree and duplicate agent names', () => {
    expect(() => new Tree({ name: 'Empty', agents: [] })).toThrow(ConfigError);
    expect(() => new Tree({ name: 'Dup', agents: [agent('A', 'x'), agent('A', 'y')] })).toThrow(
      /two agents are named "A"/,
    );
  });
});
