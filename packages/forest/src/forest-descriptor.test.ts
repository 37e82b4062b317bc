import { Agent } from '@swarm/core';
import { reply, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { forestDescriptor } from './forest-descriptor.js';

describe('forestDescriptor', () => {
  it('builds a one-tree forest from plain agents and routes by their instructions', async () => {
    const taxModel = new ScriptedModel([reply('File Form 1120.')]);
    const chefModel = new ScriptedModel();
    const agents = [
      new Agent({
        name: 'Tax Expert',
        instructions: 'Corporate taxation, tax returns and tax filing.',
        model: taxModel,
      }),
      new Agent({
        name: 'Chef',
        instructions: 'Italian cooking: pasta, risotto, recipes.',
        model: chefModel,
      }),
    ];
    const forest = forestDescriptor.create(agents, { name: 'desk' });
    expect(forest.type).toBe('ForestSwarm');
    expect(forest.name).toBe('desk');

    const result = await forest.run('How do I file the tax return of my corporation?');

    expect(result.output).toBe('File Form 1120.');
    expect(taxModel.calls).toHaveLength(1);
    expect(chefModel.calls).toHaveLength(0);
  });
});
