import { ConfigError, tool } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SwarmSpecError } from './spec-error.js';
import { loadSwarmSpec } from './swarm-spec.js';
import { standInDescriptor } from './test-descriptors.js';

const topologies = [
  standInDescriptor('SequentialWorkflow'),
  standInDescriptor('GroupChat', { minAgents: 2 }),
];
const clock = tool({
  name: 'clock',
  description: 'The time.',
  parameters: z.object({}),
  execute: () => 'noon',
});

function issues(spec: unknown, options = {}) {
  try {
    loadSwarmSpec(spec, { topologies, defaultModel: new ScriptedModel(), ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(SwarmSpecError);
    return (error as SwarmSpecError).issues;
  }
  throw new Error('the spec loaded');
}

describe('loadSwarmSpec', () => {
  it("types the swarm's answer with a topology-level outputType given as a JSON Schema", async () => {
    const model = new ScriptedModel([
      reply('draft'),
      reply('Bike lanes cut crashes.'),
      toolCall('final_output', { title: 'Bike lanes', points: ['They cut crashes.'] }),
    ]);
    const { topology } = loadSwarmSpec(
      {
        agents: [{ name: 'writer' }, { name: 'editor' }],
        topology: 'SequentialWorkflow',
        outputType: {
          type: 'object',
          properties: { title: { type: 'string' }, points: { type: 'array', items: { type: 'string' } } },
          required: ['title', 'points'],
        },
      },
      { topologies, defaultModel: model },
    );
    const result = await topology.run('Brief the council on bike lanes.');
    expect(result.finalOutput).toEqual({ title: 'Bike lanes', points: ['They cut crashes.'] });
    expect(JSON.parse(result.output)).toEqual(result.finalOutput);
    expect(model.lastCall?.metadata?.purpose).toBe('output');
    expect(JSON.stringify(model.lastCall?.messages)).toContain('Bike lanes cut crashes.');
    expect(
      issues({ agents: [{ name: 'a' }], topology: 'SequentialWorkflow', outputType: { type: 'string' } }),
    ).toEqual([{ path: 'outputType', message: expect.stringMatching(/JSON Schema of type "object"/) }]);
  });

  it('builds the agents and the topology a valid spec describes, and runs it', async () => {
    const model = new ScriptedModel([reply('draft'), reply('final')]);
    const { topology, agents } = loadSwarmSpec(
      {
        agents: [
          { name: 'writer', instructions: 'Write.', tools: ['clock'] },
          { name: 'editor', instructions: 'Edit.' },
        ],
        topology: 'SequentialWorkflow',
        config: { prefix: '> ' },
      },
      { topologies, defaultModel: model, tools: { clock } },
    );
    expect(agents.map((a) => [a.name, a.instructions, a.tools.map((t) => t.name)])).toEqual([
      ['writer', 'Write.', ['clock']],
      ['editor', 'Edit.', []],
    ]);
    expect((await topology.run('a poem')).output).toBe('> final');
  });

  it('makes the calls of a tool written { name, needsApproval: true } wait for approval, and leaves the tool set as it was', () => {
    const { agents } = loadSwarmSpec(
      {
        agents: [
          { name: 'clerk', tools: [{ name: 'clock', needsApproval: true }] },
          { name: 'b', tools: ['clock'] },
        ],
        topology: 'SequentialWorkflow',
      },
      { topologies, defaultModel: new ScriptedModel(), tools: { clock } },
    );
    expect(agents[0]!.tools.map((t) => [t.name, t.needsApproval])).toEqual([['clock', true]]);
    expect(agents[1]!.tools).toEqual([clock]);
    expect(clock.needsApproval).toBeUndefined();
    expect(
      issues(
        {
          agents: [
            { name: 'a', tools: [{ name: 'web', needsApproval: true }, { name: 'clock', approve: true }, 3] },
          ],
          topology: 'SequentialWorkflow',
        },
        { tools: { clock } },
      ),
    ).toEqual([
      { path: 'agents[0].tools[1]', message: 'Unrecognized key: "approve"' },
      { path: 'agents[0].tools[2]', message: 'a tool is a name, or { name, needsApproval }' },
      { path: 'agents[0].tools[0]', message: 'unknown tool "web"; available: clock' },
    ]);
  });

  it('gives an agent a JSON Schema outputType: its run ends with the validated object', async () => {
    const model = new ScriptedModel([toolCall('final_output', { city: 'Oslo', highC: 21 })]);
    const { agents } = loadSwarmSpec(
      {
        agents: [
          {
            name: 'forecaster',
            outputType: {
              type: 'object',
              properties: { city: { type: 'string' }, highC: { type: 'number' } },
              required: ['city', 'highC'],
            },
          },
        ],
        topology: 'SequentialWorkflow',
      },
      { topologies, defaultModel: model },
    );
    const result = await agents[0]!.run('Weather in Oslo?');
    expect(result.finalOutput).toEqual({ city: 'Oslo', highC: 21 });
    expect(
      issues({ agents: [{ name: 'a', outputType: { type: 'string' } }], topology: 'SequentialWorkflow' }),
    ).toEqual([
      expect.objectContaining({ path: 'agents[0]', message: expect.stringContaining('outputType') }),
    ]);
  });

  it('names the path of a missing field and of a wrong type', () => {
    expect(issues({ agents: [{ instructions: 'x' }], topology: 'SequentialWorkflow' })).toEqual([
      { path: 'agents[0].name', message: expect.stringMatching(/expected string/) },
    ]);
    expect(
      issues({ agents: [{ name: 'a', maxTurns: 'many' }], topology: 'SequentialWorkflow' })[0]?.path,
    ).toBe('agents[0].maxTurns');
    expect(issues({ agents: [{ name: 'a' }] })[0]?.path).toBe('topology');
  });

  it('names an unknown topology and lists the registered ones', () => {
    expect(issues({ agents: [{ name: 'a' }], topology: 'Nope' })).toEqual([
      { path: 'topology', message: 'unknown topology "Nope"; registered: SequentialWorkflow, GroupChat' },
    ]);
  });

  it('names unknown tools, duplicate agents, missing models and too few agents, all at once', () => {
    const found = issues(
      { agents: [{ name: 'a', tools: ['clock', 'web'] }, { name: 'a' }], topology: 'GroupChat' },
      { tools: { clock }, defaultModel: undefined },
    );
    expect(found.map((i) => i.path)).toEqual([
      'agents[0].model',
      'agents[0].tools[1]',
      'agents[1].name',
      'agents[1].model',
    ]);
    expect(found[1]?.message).toBe('unknown tool "web"; available: clock');
    expect(issues({ agents: [{ name: 'solo' }], topology: 'GroupChat' })).toEqual([
      { path: 'agents', message: 'GroupChat needs at least 2 agent(s) (got 1)' },
    ]);
  });

  it('reports a wrong type with the duplicate names, unknown tools, bad model and bad config around it', () => {
    const found = issues(
      {
        agents: [
          { name: 'a', maxTurns: 'many' },
          { name: 'a', tools: ['clock', 'web'] },
          { name: 'b', model: 'nope:thing' },
        ],
        topology: 'SequentialWorkflow',
        config: { prefix: 3 },
      },
      { tools: { clock } },
    );
    expect(found.map((i) => i.path)).toEqual([
      'agents[0].maxTurns',
      'agents[1].name',
      'agents[1].tools[1]',
      'agents[2].model',
      'config.prefix',
    ]);
    expect(found[3]?.message).toMatch(/nope:thing/);
  });

  it("checks the config with the descriptor's schema, and reports its constructor's errors at config", () => {
    expect(
      issues({ agents: [{ name: 'a' }], topology: 'SequentialWorkflow', config: { prefix: 3 } }),
    ).toEqual([{ path: 'config.prefix', message: expect.stringMatching(/expected string/) }]);
    expect(
      issues({ agents: [{ name: 'a' }], topology: 'SequentialWorkflow', config: { flow: 'ghost' } }),
    ).toEqual([{ path: 'config.flow', message: 'flow names an unknown agent "ghost".' }]);
  });

  it("puts a constructor's error at the config key it names (with its index), else at config", () => {
    const refusing = (message: string) => ({
      type: 'Strict',
      description: 'Refuses its config.',
      create: () => {
        throw new ConfigError(message);
      },
    });
    const at = (message: string, config: Record<string, unknown>) =>
      issues({ agents: [{ name: 'a' }], topology: 'Strict', config }, { topologies: [refusing(message)] })[0]
        ?.path;
    const config = { edges: [], flow: 'a -> b', rounds: 2, 'max.depth': 1 };
    expect(at('Strict: edges[1] names an unknown node "x".', config)).toBe('config.edges[1]');
    expect(at('Strict: unknown member "b" at column 6 of the flow:\n  a -> b', config)).toBe('config.flow');
    // The key named first wins; a key inside a longer word or path is not the key.
    expect(at('Strict: rounds must be fewer than the edges.', config)).toBe('config.rounds');
    expect(at('Strict: maxrounds and overflow are unknown; x.rounds too.', config)).toBe('config');
    expect(at('Strict: max.depth must be 2.', config)).toBe('config.max.depth');
    expect(at('Strict: the flowchart has an unknown roundsman.', config)).toBe('config');
    // The owner's name is not the key, even when a key has the same name.
    expect(at('flow: the agents cannot run.', { flow: 'a' })).toBe('config');
    expect(at('Strict: with several agents each must be named after a role.', config)).toBe('config');
  });

  it('rejects fields a spec does not have, so a typo is not silently ignored', () => {
    expect(
      issues({ agents: [{ name: 'a', instruction: 'x' }], topology: 'SequentialWorkflow' })[0],
    ).toMatchObject({
      path: 'agents[0]',
      message: expect.stringMatching(/instruction/),
    });
  });
});
