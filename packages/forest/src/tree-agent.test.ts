import { Agent, ConfigError, ModelError, type SwarmEvent } from '@swarm/core';
import { reply, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { countingEmbedder } from './test-helpers.js';
import { TreeAgent } from './tree-agent.js';

describe('TreeAgent', () => {
  it('embeds nothing when it is built', () => {
    const { embedder, calls } = countingEmbedder();
    new TreeAgent({
      name: 'Tax Expert',
      systemPrompt: 'I am a tax expert.',
      model: new ScriptedModel(),
      embedder,
    });
    expect(calls).toHaveLength(0);
  });

  it('wraps a ready core Agent, taking its instructions as the system prompt', () => {
    const core = new Agent({
      name: 'Analyst',
      instructions: 'I analyse stock market trends.',
      model: new ScriptedModel(),
    });
    const treeAgent = new TreeAgent({ agent: core, keywords: ['Stocks', 'ROTH IRA'] });
    expect(treeAgent.name).toBe('Analyst');
    expect(treeAgent.systemPrompt).toBe('I analyse stock market trends.');
    expect(treeAgent.keywords).toEqual(['stocks', 'roth', 'ira']);
    expect(treeAgent.agent).toBe(core);
  });

  it('measures distance as 1 - cosine of the prompt embeddings, in one embedding call', async () => {
    const { embedder, calls } = countingEmbedder();
    const tax = new TreeAgent({
      name: 'Tax',
      systemPrompt: 'tax filing and tax deductions',
      model: new ScriptedModel(),
      embedder,
    });
    const sameTopic = new TreeAgent({
      name: 'Tax 2',
      systemPrompt: 'tax deductions and tax filing',
      model: new ScriptedModel(),
    });
    const other = new TreeAgent({
      name: 'Runner',
      systemPrompt: 'marathon running workouts',
      model: new ScriptedModel(),
    });
    expect(await tax.calculateDistance(sameTopic)).toBeLessThan(await tax.calculateDistance(other));
    expect(await tax.calculateDistance(tax)).toBeCloseTo(0, 5);
    expect(calls).toHaveLength(2);
  });

  it('is relevant by a whole-token keyword or by similarity above the threshold', async () => {
    const tax = new TreeAgent({
      name: 'Tax',
      systemPrompt: 'I am a tax expert.',
      model: new ScriptedModel(),
    });
    await expect(tax.isRelevantForTask('What about my tax?')).resolves.toBe(true);
    await expect(tax.isRelevantForTask('Call me a taxi')).resolves.toBe(false);
    await expect(tax.isRelevantForTask('Call me a taxi', -1)).resolves.toBe(true);
  });

  it('reports an embedding failure as an error, never as a zero-vector similarity', async () => {
    const tax = new TreeAgent({
      name: 'Tax',
      systemPrompt: 'I am a tax expert.',
      model: new ScriptedModel(),
      embedder: {
        id: 'down',
        embed: async () => {
          throw new ModelError('embeddings down', { provider: 'down' });
        },
      },
    });
    await expect(tax.isRelevantForTask('Call me a taxi', -1)).rejects.toThrow('embeddings down');
    await expect(tax.calculateDistance(tax)).rejects.toThrow('embeddings down');
  });

  it('runs a task and returns the answer with its input and output records, also as events', async () => {
    const model = new ScriptedModel([reply('File by April 15.')]);
    const tax = new TreeAgent({ name: 'Tax', systemPrompt: 'I am a tax expert.', model });
    const events: SwarmEvent[] = [];
    const result = await tax.runTask('When do I file?', { onEvent: (e) => events.push(e) });
    expect(result.output).toBe('File by April 15.');
    expect(result.agentInput).toMatchObject({ agentName: 'Tax', task: 'When do I file?' });
    expect(result.agentOutput).toMatchObject({ agentName: 'Tax', result: 'File by April 15.' });
    expect(model.lastCall?.system).toBe('I am a tax expert.');
    expect(events.filter((e) => e.type.startsWith('forest.')).map((e) => e.type)).toEqual([
      'forest.agent_input',
      'forest.agent_output',
    ]);
  });

  it('rejects a missing name, system prompt or model', () => {
    expect(() => new TreeAgent({ systemPrompt: 'x', model: new ScriptedModel() })).toThrow(
      /name must be a non-empty string/,
    );
    expect(() => new TreeAgent({ name: 'A', systemPrompt: ' ', model: new ScriptedModel() })).toThrow(
      /systemPrompt/,
    );
    expect(() => new TreeAgent({ name: 'A', systemPrompt: 'x' })).toThrow(ConfigError);
  });
});
