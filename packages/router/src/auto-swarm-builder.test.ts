import { ConfigError, StructuredOutputError } from '@swarm/core';
import { autoModel, object, reply, ScriptedModel } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { describe, expect, it } from 'vitest';
import { AutoSwarmBuilder } from './auto-swarm-builder.js';
import { autoSwarmBuilderDescriptor } from './router-descriptors.js';
import { loadSwarmSpec } from './swarm-spec.js';
import { standInDescriptor } from './test-descriptors.js';

const topologies = [
  standInDescriptor('SequentialWorkflow'),
  standInDescriptor('DebateWithJudge', { minAgents: 3, maxAgents: 3 }),
];
const agent = (name: string) => ({ name, description: `${name} role`, instructions: `You are the ${name}.` });

describe('AutoSwarmBuilder', () => {
  it('designs a swarm as plain JSON that can be saved, loaded and run later', async () => {
    const model = new ScriptedModel([
      object({
        topology: 'SequentialWorkflow',
        reason: 'Draft then edit.',
        agents: [agent('writer'), agent('editor')],
        config: { prefix: '' },
      }),
    ]);
    const design = await new AutoSwarmBuilder({ model, topologies }).design('Write a haiku.');
    expect(design).toEqual({
      topology: 'SequentialWorkflow',
      agents: [agent('writer'), agent('editor')],
      config: { prefix: '' },
    });
    const saved = JSON.parse(JSON.stringify(design));
    const { topology } = loadSwarmSpec(saved, {
      topologies,
      defaultModel: new ScriptedModel([reply('draft'), reply('haiku')]),
    });
    expect((await topology.run('Write a haiku.')).output).toBe('haiku');
  });

  it('sends a design that cannot be built back with its problem, and builds the repaired one', async () => {
    const model = new ScriptedModel([
      object({
        topology: 'DebateWithJudge',
        reason: 'Argue it.',
        agents: [agent('pro'), agent('con')],
        config: {},
      }),
      object({
        topology: 'DebateWithJudge',
        reason: 'Argue it.',
        agents: [agent('pro'), agent('con'), agent('judge')],
        config: {},
      }),
    ]);
    const design = await new AutoSwarmBuilder({ model, topologies }).design('Is tea better than coffee?');
    expect(design.agents.map((a) => a.name)).toEqual(['pro', 'con', 'judge']);
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(
      /cannot be built: .*agents: DebateWithJudge needs at least 3 agent/,
    );
    // The repair turn shows the model its own design before the problem.
    const shown = model.calls[1]?.messages.at(-2);
    expect(shown?.role).toBe('assistant');
    expect(JSON.parse(String(shown?.content))).toMatchObject({ agents: [agent('pro'), agent('con')] });
  });

  it('holds a design to maxAgents: a bigger team is sent back', async () => {
    const model = new ScriptedModel([
      object({
        topology: 'SequentialWorkflow',
        reason: 'r',
        agents: [agent('a'), agent('b'), agent('c')],
        config: {},
      }),
      object({ topology: 'SequentialWorkflow', reason: 'r', agents: [agent('a'), agent('b')], config: {} }),
    ]);
    const design = await new AutoSwarmBuilder({ model, topologies, maxAgents: 2 }).design('t');
    expect(design.agents).toHaveLength(2);
    expect(model.calls).toHaveLength(2);
  });

  it('gives up with StructuredOutputError after maxRepairs unbuildable designs', async () => {
    const bad = object({
      topology: 'SequentialWorkflow',
      reason: 'x',
      agents: [agent('a'), agent('a')],
      config: {},
    });
    const model = new ScriptedModel([bad, bad]);
    await expect(
      new AutoSwarmBuilder({ model, topologies, maxRepairs: 1 }).design('t'),
    ).rejects.toBeInstanceOf(StructuredOutputError);
    expect(model.calls).toHaveLength(2);
  });

  it('runs the task with the swarm it designed, nested in its own run', async () => {
    const model = new ScriptedModel([
      object({
        topology: 'SequentialWorkflow',
        reason: 'One step.',
        agents: [agent('solver')],
        config: { prefix: '' },
      }),
    ]);
    const agentModel = new ScriptedModel([reply('42')]);
    const result = await new AutoSwarmBuilder({ model, topologies, agentModel }).run('6 times 7?');
    expect(result.output).toBe('42');
    expect(result.design.topology).toBe('SequentialWorkflow');
    expect(result.llmCalls).toBe(2);
    expect(agentModel.lastCall?.system).toBe('You are the solver.');
  });

  it('rejects bad options at construction', () => {
    expect(() => new AutoSwarmBuilder({ model: 'gpt-5.4', topologies: [] })).toThrow(ConfigError);
    expect(() => new AutoSwarmBuilder({ model: 'gpt-5.4', topologies, maxAgents: 0 })).toThrow(
      'AutoSwarmBuilder: maxAgents must be an integer >= 1 (got 0).',
    );
    expect(() => new AutoSwarmBuilder({ model: 'gpt-5.4', topologies, maxRepairs: -1 })).toThrow(
      'AutoSwarmBuilder: maxRepairs must be an integer >= 0 (got -1).',
    );
  });

  it('refuses an empty task before any call, for design and run alike', async () => {
    const model = new ScriptedModel([]);
    const builder = new AutoSwarmBuilder({ model, topologies });
    await expect(builder.design('  ')).rejects.toThrow(
      'AutoSwarmBuilder.design: task must be a non-empty string.',
    );
    await expect(builder.run('')).rejects.toBeInstanceOf(ConfigError);
    expect(model.calls).toHaveLength(0);
  });

  it('has a descriptor that says its worst case is unknown until the design exists', () => {
    const descriptor = autoSwarmBuilderDescriptor(topologies);
    expect(descriptor.worstCase?.([], {})).toMatchObject({
      maxCalls: undefined,
      reason: expect.stringMatching(/design/),
    });
  });
});

topologyConformanceTests('AutoSwarmBuilder', {
  create: (model, { guardrails }) =>
    new AutoSwarmBuilder({ ...guardrails, model, topologies: [standInDescriptor('SequentialWorkflow')] }),
  model: () => autoModel(),
  noTools:
    'its members are designed by the model at run time, and the suite model designs them without tools',
});
