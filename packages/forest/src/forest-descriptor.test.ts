import { Agent, tool } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

  it('previews one task as the maxTurns of the agent with the most, and a run routed to it makes exactly that many', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({}),
      execute: () => 'x',
    });
    // The tax model calls its tool on every turn but the last: the most expensive path.
    const taxModel = new ScriptedModel([
      toolCall('lookup', {}),
      toolCall('lookup', {}),
      toolCall('lookup', {}),
      reply('Done.'),
    ]);
    const agents = [
      new Agent({
        name: 'Chef',
        instructions: 'Italian cooking: pasta, risotto, recipes.',
        model: new ScriptedModel(),
        maxTurns: 2,
      }),
      new Agent({
        name: 'Tax Expert',
        instructions: 'Corporate taxation, tax returns and tax filing.',
        model: taxModel,
        tools: [lookup],
        maxTurns: 4,
      }),
    ];
    expect(forestDescriptor.worstCase!(agents, {})).toEqual({ maxCalls: 4 });

    const result = await forestDescriptor
      .create(agents, {})
      .run('How do I file the tax return of my corporation?');

    expect(result.llmCalls).toBe(4);
    expect(taxModel.calls).toHaveLength(4);
  });

  it('validates the JSON config a spec may give, by path', () => {
    const schema = forestDescriptor.configSchema!;
    expect(schema.safeParse({ routing: 'first', threshold: 'auto', treeName: 'desk' }).success).toBe(true);
    expect(schema.safeParse({ threshold: 0.2, embedder: 'local' }).success).toBe(true);
    expect(schema.safeParse({ senseCheck: false }).success).toBe(true);
    expect(schema.safeParse({ senseCheck: 'no' }).error?.issues[0]?.path).toEqual(['senseCheck']);
    expect(schema.safeParse({ routing: 'random' }).error?.issues[0]?.path).toEqual(['routing']);
    expect(schema.safeParse({ threshold: 2 }).error?.issues[0]?.path).toEqual(['threshold']);
    expect(schema.safeParse({ fallback: {} }).success).toBe(false);
  });
});
