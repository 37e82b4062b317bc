import {
  Agent,
  BaseTopology,
  ConfigError,
  type ModelRequest,
  type RunOptions,
  runTopology,
  type TopologyDescriptor,
  type TopologyResult,
} from '@swarm/core';
import { Gate, object, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { SwarmRouter } from './swarm-router.js';
import { ourTypes, seedTypes, standInDescriptor } from './test-descriptors.js';

const echo = (name: string) =>
  new Agent({
    name,
    model: new ScriptedModel([], {
      fallback: respond((r: ModelRequest) => `${name}:${r.messages.at(-1)?.content}`),
    }),
  });

class Typed extends BaseTopology {
  readonly type = 'Typed';
  readonly name = 'typed';
  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async () => ({
      output: '{"city":"Oslo"}',
      finalOutput: { city: 'Oslo' },
    }));
  }
}

describe('SwarmRouter', () => {
  it('passes on the typed finalOutput of the topology that ran', async () => {
    const typed: TopologyDescriptor = {
      type: 'Typed',
      description: 'Answers typed.',
      create: () => new Typed(),
    };
    const router = new SwarmRouter({ agents: [echo('a')], swarmType: 'Typed', topologies: [typed] });
    const result = await router.run('Weather?');
    expect(result.finalOutput).toEqual({ city: 'Oslo' });
    expect(result.output).toBe('{"city":"Oslo"}');
  });

  it.each([...seedTypes, ...ourTypes])('runs %s when its descriptor is given', async (type) => {
    const topologies = [...seedTypes, ...ourTypes].map((t) => standInDescriptor(t));
    const router = new SwarmRouter({ agents: [echo('a')], swarmType: type, topologies });
    const result = await router.run('task');
    expect(result.swarmType).toBe(type);
    expect(result.output).toBe(`[${type}] a:task`);
  });

  it("gives run(task, { attachments }) to the chosen topology's agents, as swarms' img", async () => {
    const model = new ScriptedModel([reply('A bar chart.')]);
    const image = { type: 'image' as const, url: 'https://example.com/chart.png' };
    const router = new SwarmRouter({
      agents: [new Agent({ name: 'viewer', model })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
    });
    await router.run('What is in the picture?', { attachments: [image] });
    expect(model.calls[0]!.messages.at(-1)!.content).toEqual([
      { type: 'text', text: 'What is in the picture?' },
      image,
    ]);
  });

  it('refuses a type missing from its descriptors, listing the registered ones', () => {
    const topologies = [standInDescriptor('SequentialWorkflow'), standInDescriptor('GroupChat')];
    expect(() => new SwarmRouter({ agents: [echo('a')], swarmType: 'HeavySwarm', topologies })).toThrow(
      'SwarmRouter: unknown topology type "HeavySwarm"; registered: SequentialWorkflow, GroupChat.',
    );
  });

  it('checks the agent count against the descriptor and the config against its schema, at construction', () => {
    const debate = standInDescriptor('DebateWithJudge', { minAgents: 3, maxAgents: 3 });
    expect(
      () => new SwarmRouter({ agents: [echo('a')], swarmType: 'DebateWithJudge', topologies: [debate] }),
    ).toThrow(/needs at least 3 agent/);
    const seq = standInDescriptor('SequentialWorkflow');
    expect(
      () =>
        new SwarmRouter({
          agents: [echo('a')],
          swarmType: 'SequentialWorkflow',
          topologies: [seq],
          config: { prefix: 1 },
        }),
    ).toThrow(/config\.prefix/);
  });

  it('builds each type once from its agents and config, and never hands run options to the constructor', async () => {
    const seq = standInDescriptor('SequentialWorkflow');
    const agents = [echo('a'), echo('b')];
    const given = [...agents];
    const router = new SwarmRouter({
      agents,
      swarmType: 'SequentialWorkflow',
      topologies: [seq],
      config: { prefix: '' },
    });
    await router.run('one', { budget: { maxCalls: 5 } });
    await router.run('two', { signal: new AbortController().signal });
    expect(seq.created).toHaveLength(1);
    expect(seq.created[0]?.config).toEqual({ prefix: '' });
    expect(seq.created[0]?.agents).toEqual(agents);
    expect(seq.created[0]?.agents).not.toBe(agents);
    expect(agents).toEqual(given);
  });

  it("gives each type its own copy of the agents: one constructor's change reaches neither the caller nor another type", async () => {
    const reversing = { ...standInDescriptor('RoundRobin') };
    const plain = standInDescriptor('SequentialWorkflow');
    let changed: string[] = [];
    reversing.create = (given, config) => {
      // As a descriptor in plain JavaScript could: the contract's array is readonly only in its type.
      const agents = given as Agent<unknown>[];
      agents.reverse();
      agents.pop();
      changed = agents.map((a) => a.name);
      return standInDescriptor('RoundRobin').create(agents, config);
    };
    const agents = [echo('a'), echo('b')];
    const router = new SwarmRouter({
      agents,
      swarmType: 'auto',
      topologies: [reversing, plain],
      model: new ScriptedModel([]),
    });
    expect(agents.map((a) => a.name)).toEqual(['a', 'b']);
    expect(router.agents.map((a) => a.name)).toEqual(['a', 'b']);
    expect(plain.created[0]?.agents.map((a) => a.name)).toEqual(['a', 'b']);
    expect(changed).toEqual(['b']);
  });

  it('refuses agents that are not Agents, or two with one name', () => {
    const topologies = [standInDescriptor('SequentialWorkflow')];
    const inner = new SwarmRouter({ agents: [echo('x')], swarmType: 'SequentialWorkflow', topologies });
    expect(
      () => new SwarmRouter({ agents: [inner as never], swarmType: 'SequentialWorkflow', topologies }),
    ).toThrow('SwarmRouter: agents[0] is a topology; the router builds its topologies from Agents.');
    expect(
      () => new SwarmRouter({ agents: [echo('a'), echo('a')], swarmType: 'SequentialWorkflow', topologies }),
    ).toThrow(/two members of agents are named "a"/);
    expect(() => new SwarmRouter({ agents: [], swarmType: 'SequentialWorkflow', topologies })).toThrow(
      ConfigError,
    );
  });

  it('keeps two runs of one router apart', async () => {
    const router = new SwarmRouter({
      agents: [echo('a')],
      swarmType: 'RoundRobin',
      topologies: [standInDescriptor('RoundRobin')],
    });
    const [x, y] = await Promise.all([router.run('x'), router.run('y')]);
    expect([x.output, y.output]).toEqual(['[RoundRobin] a:x', '[RoundRobin] a:y']);
    expect([x.llmCalls, y.llmCalls]).toEqual([1, 1]);
  });

  describe("swarmType 'auto'", () => {
    const topologies = () => [
      standInDescriptor('SequentialWorkflow'),
      standInDescriptor('MajorityVoting'),
      standInDescriptor('DebateWithJudge', { minAgents: 3, maxAgents: 3 }),
    ];

    it('lets a model choose among the types that fit, and records the choice and its reason', async () => {
      const chooser = new ScriptedModel([
        object({ swarmType: 'MajorityVoting', reason: 'A yes/no question.' }),
      ]);
      const router = new SwarmRouter({
        agents: [echo('a'), echo('b')],
        swarmType: 'auto',
        topologies: topologies(),
        model: chooser,
      });
      const events: string[] = [];
      const result = await router.run('Is 7 prime?', { onEvent: (e) => events.push(e.type) });
      expect(result).toMatchObject({
        swarmType: 'MajorityVoting',
        reason: 'A yes/no question.',
        output: '[MajorityVoting] b:a:Is 7 prime?',
      });
      expect(result.llmCalls).toBe(3);
      expect(events).toContain('router.choice');
      // DebateWithJudge needs three agents, so it is not on the menu for two.
      const offered = chooser.calls[0]?.tools?.[0]?.parameters as {
        properties: { swarmType: { enum: string[] } };
      };
      expect(offered.properties.swarmType.enum).toEqual(['SequentialWorkflow', 'MajorityVoting']);
      expect(chooser.calls[0]?.system).toContain('MajorityVoting: Stand-in for MajorityVoting.');
    });

    it('offers only the types that build without the config nobody gave, and says why none fits', async () => {
      // A stand-in AgentRearrange that needs a flow, like the real one.
      const needsFlow = (type: string) => ({
        ...standInDescriptor(type),
        configSchema: z.object({ flow: z.string() }),
      });
      const chooser = new ScriptedModel([object({ swarmType: 'MajorityVoting', reason: 'votes' })]);
      const router = new SwarmRouter({
        agents: [echo('a')],
        swarmType: 'auto',
        topologies: [needsFlow('AgentRearrange'), standInDescriptor('MajorityVoting')],
        model: chooser,
      });
      await router.run('Is 7 prime?');
      const offered = chooser.calls[0]?.tools?.[0]?.parameters as {
        properties: { swarmType: { enum: string[] } };
      };
      expect(offered.properties.swarmType.enum).toEqual(['MajorityVoting']);
      expect(
        () =>
          new SwarmRouter({
            agents: [echo('a')],
            swarmType: 'auto',
            topologies: [needsFlow('AgentRearrange'), standInDescriptor('DebateWithJudge', { minAgents: 3 })],
          }),
      ).toThrow(
        /^SwarmRouter: no registered topology fits for 'auto': AgentRearrange: Invalid swarm spec: configs\.AgentRearrange\.flow: .*; DebateWithJudge needs at least 3 agent\(s\) \(got 1\)\.$/,
      );
    });

    it("refuses a config the caller gave for a type that cannot take it, at that type's key", () => {
      const make = (configs: Record<string, unknown>) =>
        new SwarmRouter({ agents: [echo('a')], swarmType: 'auto', topologies: topologies(), configs });
      expect(() => make({ SequentialWorkflow: { flow: 'ghost' } })).toThrow(
        'flow names an unknown agent "ghost".',
      );
      expect(() => make({ MajorityVoting: { prefix: 3 } })).toThrow(/configs\.MajorityVoting\.prefix: /);
    });

    it('builds each type once, however many runs choose it', async () => {
      const seq = standInDescriptor('SequentialWorkflow');
      const vote = standInDescriptor('MajorityVoting');
      const chooser = new ScriptedModel([
        object({ swarmType: 'MajorityVoting', reason: '1' }),
        object({ swarmType: 'SequentialWorkflow', reason: '2' }),
        object({ swarmType: 'MajorityVoting', reason: '3' }),
      ]);
      const router = new SwarmRouter({
        agents: [echo('a')],
        swarmType: 'auto',
        topologies: [seq, vote],
        model: chooser,
      });
      for (const task of ['x', 'y', 'z']) await router.run(task);
      expect([seq.created.length, vote.created.length]).toEqual([1, 1]);
    });

    it('sends an invalid choice back for repair', async () => {
      const chooser = new ScriptedModel([
        object({ swarmType: 'HeavySwarm', reason: 'deep' }),
        object({ swarmType: 'SequentialWorkflow', reason: 'steps' }),
      ]);
      const router = new SwarmRouter({
        agents: [echo('a')],
        swarmType: 'auto',
        topologies: topologies(),
        model: chooser,
      });
      const result = await router.run('Write a report.');
      expect(result.swarmType).toBe('SequentialWorkflow');
      expect(chooser.calls).toHaveLength(2);
      expect(chooser.calls[1]?.messages.at(-1)?.content).toMatch(/Invalid arguments: swarmType/);
    });
  });

  it('hands the constructor the config as its schema parsed it (defaults filled in)', () => {
    const seq = standInDescriptor('SequentialWorkflow');
    const withDefault = { ...seq, configSchema: z.object({ prefix: z.string().default('> ') }) };
    new SwarmRouter({ agents: [echo('a')], swarmType: 'SequentialWorkflow', topologies: [withDefault] });
    expect(seq.created[0]?.config).toEqual({ prefix: '> ' });
  });

  it('checks the most agents a type takes, and refuses two descriptors of one type', () => {
    const debate = standInDescriptor('DebateWithJudge', { minAgents: 3, maxAgents: 3 });
    const agents = ['a', 'b', 'c', 'd'].map(echo);
    expect(() => new SwarmRouter({ agents, swarmType: 'DebateWithJudge', topologies: [debate] })).toThrow(
      'SwarmRouter: DebateWithJudge takes at most 3 agent(s) (got 4).',
    );
    expect(
      () =>
        new SwarmRouter({
          agents,
          swarmType: 'GroupChat',
          topologies: [standInDescriptor('GroupChat'), standInDescriptor('GroupChat')],
        }),
    ).toThrow('SwarmRouter: two descriptors have the type "GroupChat".');
  });

  it("passes on the topology's interruption", async () => {
    const seq = standInDescriptor('SequentialWorkflow');
    const interrupted = {
      ...seq,
      create: (agents: Agent[], config: { prefix?: string }) => {
        const inner = seq.create(agents, config);
        return Object.assign(Object.create(inner), {
          run: async (task: string, options: RunOptions) => ({
            ...(await inner.run(task, options)),
            interrupted: true,
            interruptionReason: 'budget:tokens',
          }),
        });
      },
    };
    const router = new SwarmRouter({
      agents: [echo('a')],
      swarmType: 'SequentialWorkflow',
      topologies: [interrupted],
    });
    expect(await router.run('t')).toMatchObject({ interrupted: true, interruptionReason: 'budget:tokens' });
  });

  it('runs at most maxWorkers tasks of a batch at once', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([], {
      fallback: respond(async (r) => {
        await gate.wait();
        return `done ${r.messages.at(-1)?.content}`;
      }),
    });
    const router = new SwarmRouter({
      agents: [new Agent({ name: 'w', model })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
      config: { prefix: '' },
    });
    const batch = router.batchedRun(['one', 'two', 'three'], { maxWorkers: 2 });
    await gate.until(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(model.calls).toHaveLength(2);
    gate.open();
    expect((await batch).map((s) => s.status === 'fulfilled' && s.value.output)).toEqual([
      'done one',
      'done two',
      'done three',
    ]);
  });

  it('runs every task of a batch at once by default, so the batch takes as long as its slowest task', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([], {
      fallback: respond(async (r) => {
        await gate.wait();
        return `done ${r.messages.at(-1)?.content}`;
      }),
    });
    const router = new SwarmRouter({
      agents: [new Agent({ name: 'w', model })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
      config: { prefix: '' },
    });
    const batch = router.batchedRun(['one', 'two', 'three', 'four']);
    await gate.until(4);
    expect(model.calls).toHaveLength(4);
    gate.open();
    expect((await batch).every((s) => s.status === 'fulfilled')).toBe(true);
  });

  it('runs a batch with settled results in task order, one failure keeping the others', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([], {
      fallback: respond(async (r) => {
        const task = r.messages.at(-1)?.content;
        if (task === 'first') await gate.wait();
        if (task === 'bad') throw new Error('provider down');
        return `done ${task}`;
      }),
    });
    const router = new SwarmRouter({
      agents: [new Agent({ name: 'w', model })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
      config: { prefix: '' },
    });
    const batch = router.batchedRun(['first', 'bad', 'third'], { maxWorkers: 3 });
    await gate.until(1);
    gate.open();
    const settled = await batch;
    expect(
      settled.map((s) => (s.status === 'fulfilled' ? s.value.output : (s.reason as Error).message)),
    ).toEqual(['done first', 'provider down', 'done third']);
    await expect(router.batchedRun(['x'], { maxWorkers: 0 })).rejects.toThrow(
      'SwarmRouter.batchedRun: maxWorkers must be an integer >= 1 (got 0).',
    );
  });
});

topologyConformanceTests('SwarmRouter', {
  create: (model, { tools, guardrails }) =>
    new SwarmRouter({
      ...guardrails,
      agents: [new Agent({ name: 'a', model, tools }), new Agent({ name: 'b', model, tools })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
    }),
});

topologyConformanceTests("SwarmRouter with 'auto'", {
  create: (model, { tools, guardrails }) =>
    new SwarmRouter({
      ...guardrails,
      agents: [new Agent({ name: 'a', model, tools })],
      swarmType: 'auto',
      topologies: [standInDescriptor('SequentialWorkflow'), standInDescriptor('ConcurrentWorkflow')],
    }),
});

it('answers with the text of the chosen topology, as a plain reply', async () => {
  const router = new SwarmRouter({
    agents: [new Agent({ name: 'a', model: new ScriptedModel([reply('hi')]) })],
    swarmType: 'SequentialWorkflow',
    topologies: [standInDescriptor('SequentialWorkflow')],
    config: { prefix: '' },
  });
  expect((await router.run('hello')).output).toBe('hi');
});

describe('SwarmRouter with typed agents', () => {
  it('takes an agent with an outputType with no cast, and its answer is that object as JSON', async () => {
    const judge = new Agent({
      name: 'judge',
      model: new ScriptedModel([], { fallback: toolCall('final_output', { verdict: 'fair' }) }),
      outputType: z.object({ verdict: z.string() }),
    });
    expectTypeOf(judge).toEqualTypeOf<Agent<{ verdict: string }>>();
    const seq = standInDescriptor('SequentialWorkflow');
    // Compiles only while the router and the descriptor contract take typed agents as they are.
    const router = new SwarmRouter({
      agents: [judge],
      swarmType: 'SequentialWorkflow',
      topologies: [seq],
      config: { prefix: '' },
    });
    expectTypeOf(router.agents).toEqualTypeOf<readonly Agent<unknown>[]>();
    const result = await router.run('Is the split fair?');
    expect(seq.created[0]?.agents).toEqual([judge]);
    expect(JSON.parse(result.output)).toEqual({ verdict: 'fair' });
  });
});
