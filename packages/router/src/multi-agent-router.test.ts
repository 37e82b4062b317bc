import { Agent, BudgetExceededError, ConfigError } from '@swarm/core';
import { autoModel, fail, Gate, object, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MultiAgentRouter } from './multi-agent-router.js';
import { multiAgentRouterDescriptor } from './router-descriptors.js';
import { SwarmRouter } from './swarm-router.js';
import { standInDescriptor } from './test-descriptors.js';

const routes = (...r: [string, string][]) =>
  object({ routes: r.map(([agentName, task]) => ({ agentName, task, reason: `${agentName} fits` })) });

describe('MultiAgentRouter', () => {
  it('runs every chosen member concurrently and keeps each result with its reason, in decision order', async () => {
    const gate = new Gate();
    const tax = new Agent({
      name: 'tax',
      description: 'Taxes.',
      model: new ScriptedModel([
        respond(async () => {
          await gate.wait();
          return 'File form 1120.';
        }),
      ]),
    });
    const legal = new Agent({
      name: 'legal',
      description: 'Law.',
      model: new ScriptedModel([reply('Register in Delaware.')]),
    });
    const router = new MultiAgentRouter({
      agents: [tax, legal],
      model: new ScriptedModel([routes(['tax', 'Which tax form?'], ['legal', 'Where to register?'])]),
    });
    const running = router.run('Start a company: taxes and registration?');
    await gate.until(1); // tax waits while legal has already answered
    gate.open();
    const result = await running;
    expect(result.routes).toEqual([
      {
        agentName: 'tax',
        task: 'Which tax form?',
        reason: 'tax fits',
        status: 'done',
        output: 'File form 1120.',
      },
      {
        agentName: 'legal',
        task: 'Where to register?',
        reason: 'legal fits',
        status: 'done',
        output: 'Register in Delaware.',
      },
    ]);
    expect(result.output).toBe('## tax\nFile form 1120.\n\n## legal\nRegister in Delaware.');
    expect((tax.model as ScriptedModel).lastCall?.messages).toEqual([
      { role: 'user', content: 'Which tax form?' },
    ]);
  });

  it("keeps a failing member's error beside the others' answers", async () => {
    const router = new MultiAgentRouter({
      agents: [
        new Agent({ name: 'a', model: new ScriptedModel([fail(new Error('provider down'))]) }),
        new Agent({ name: 'b', model: new ScriptedModel([reply('fine')]) }),
      ],
      model: new ScriptedModel([routes(['a', 'x'], ['b', 'y'])]),
    });
    const result = await router.run('go');
    expect(result.routes.map((r) => [r.status, r.output ?? r.error])).toEqual([
      ['failed', 'provider down'],
      ['done', 'fine'],
    ]);
  });

  it('sends a route to an unknown member back for repair, never runs it', async () => {
    const model = new ScriptedModel([routes(['ghost', 'boo']), routes(['a', 'real task'])]);
    const a = new Agent({ name: 'a', model: new ScriptedModel([reply('ok')]) });
    const result = await new MultiAgentRouter({ agents: [a], model }).run('go');
    expect(result.output).toBe('ok');
    expect(model.calls).toHaveLength(2);
  });

  it('answers a single route with its text alone, and rejects bad options', async () => {
    const a = new Agent({ name: 'a', model: new ScriptedModel([reply('only me')]) });
    const r = await new MultiAgentRouter({ agents: [a], model: new ScriptedModel([routes(['a', 't'])]) }).run(
      'go',
    );
    expect(r.output).toBe('only me');
    expect(() => new MultiAgentRouter({ agents: [a], model: 'gpt-5.4', maxRoutes: 0 })).toThrow(
      'MultiAgentRouter: maxRoutes must be an integer >= 1 (got 0).',
    );
    expect(() => new MultiAgentRouter({ agents: [a], model: 'gpt-5.4', maxWorkers: 1.5 })).toThrow(
      'MultiAgentRouter: maxWorkers must be an integer >= 1 (got 1.5).',
    );
    expect(() => new MultiAgentRouter({ agents: [], model: 'gpt-5.4' })).toThrow(ConfigError);
  });

  it('stops at the budget mid-routes: answers from the routes that ran, marked interrupted', async () => {
    const a = new Agent({ name: 'a', model: new ScriptedModel([reply('from a')]) });
    const b = new Agent({ name: 'b', model: new ScriptedModel([reply('never')]) });
    const result = await new MultiAgentRouter({
      agents: [a, b],
      model: new ScriptedModel([routes(['a', 'x'], ['b', 'y'])]),
      maxWorkers: 1,
    }).run('go', { budget: { maxCalls: 2 } });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls', llmCalls: 2 });
    expect(result.routes.map((r) => r.status)).toEqual(['done', 'failed']);
    expect(result.output).toBe('## a\nfrom a');
  });

  it('fails with the budget error when the budget leaves no route done, never with an empty answer', async () => {
    const a = new Agent({ name: 'a', model: new ScriptedModel([reply('never')]) });
    const run = (maxCalls: number) =>
      new MultiAgentRouter({ agents: [a], model: new ScriptedModel([routes(['a', 't'])]) }).run('go', {
        budget: { maxCalls },
      });
    await expect(run(1)).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(run(0)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('fails with NO_ANSWER naming each route when every route failed', async () => {
    const down = (name: string) =>
      new Agent({ name, model: new ScriptedModel([fail(new Error(`${name} down`))]) });
    const run = new MultiAgentRouter({
      agents: [down('a'), down('b')],
      model: new ScriptedModel([routes(['a', 'x'], ['b', 'y'])]),
    }).run('go');
    await expect(run).rejects.toMatchObject({
      code: 'NO_ANSWER',
      message: 'MultiAgentRouter: every route failed (a: a down; b: b down).',
    });
  });

  it('rejects with AbortError when aborted while members work, not a failed route', async () => {
    const gate = new Gate();
    const controller = new AbortController();
    const slow = new Agent({
      name: 'slow',
      model: new ScriptedModel([], {
        fallback: respond(async () => {
          await gate.wait();
          return 'late';
        }),
      }),
    });
    const quick = new Agent({ name: 'quick', model: new ScriptedModel([reply('fast')]) });
    const run = new MultiAgentRouter({
      agents: [slow, quick],
      model: new ScriptedModel([routes(['slow', 'x'], ['quick', 'y'])]),
    }).run('go', { signal: controller.signal });
    await gate.until(1);
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'ABORTED' });
    gate.open();
  });

  it('sends a decision with more routes than maxRoutes back for repair', async () => {
    const model = new ScriptedModel([routes(['a', 'x'], ['b', 'y']), routes(['b', 'y'])]);
    const a = new Agent({ name: 'a', model: new ScriptedModel([reply('never')]) });
    const b = new Agent({ name: 'b', model: new ScriptedModel([reply('from b')]) });
    const result = await new MultiAgentRouter({ agents: [a, b], model, maxRoutes: 1 }).run('go');
    expect(result.output).toBe('from b');
    expect(model.calls).toHaveLength(2);
  });

  it('runs at most maxWorkers members at once', async () => {
    const gate = new Gate();
    const worker = (name: string) =>
      new Agent({
        name,
        model: new ScriptedModel([], {
          fallback: respond(async () => {
            await gate.wait();
            return name;
          }),
        }),
      });
    const members = [worker('a'), worker('b'), worker('c')];
    const run = new MultiAgentRouter({
      agents: members,
      model: new ScriptedModel([routes(['a', 'x'], ['b', 'y'], ['c', 'z'])]),
      maxWorkers: 2,
    }).run('go');
    await gate.until(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(members.map((m) => (m.model as ScriptedModel).calls.length)).toEqual([1, 1, 0]);
    gate.open();
    expect((await run).routes.map((r) => r.output)).toEqual(['a', 'b', 'c']);
  });

  it('takes a whole topology as a member', async () => {
    const inner = new SwarmRouter({
      name: 'research-team',
      agents: [new Agent({ name: 'r', model: new ScriptedModel([reply('found it')]) })],
      swarmType: 'SequentialWorkflow',
      topologies: [standInDescriptor('SequentialWorkflow')],
      config: { prefix: '' },
    });
    const router = new MultiAgentRouter({
      agents: [inner],
      model: new ScriptedModel([routes(['research-team', 'look'])]),
    });
    const result = await router.run('research');
    expect(result.output).toBe('found it');
    expect(result.llmCalls).toBe(2);
  });

  it("types the routed member's answer with outputType, routing to one member, repaired when invalid", async () => {
    const refund = z.object({ approve: z.boolean(), amount: z.number().min(0) });
    const billingModel = new ScriptedModel([
      toolCall('final_output', { approve: 'yes' }),
      toolCall('final_output', { approve: true, amount: 30 }),
    ]);
    const billing = new Agent({ name: 'billing', description: 'Refunds.', model: billingModel });
    const support = new Agent({ name: 'support', description: 'Questions.', model: new ScriptedModel() });
    const routerModel = new ScriptedModel([routes(['billing', 'refund order 7'])]);
    const router = new MultiAgentRouter({
      agents: [billing, support],
      model: routerModel,
      outputType: refund,
    });
    expect(router.maxRoutes).toBe(1);
    const result = await router.run('Refund order 7, 30 euros.');
    const typed: { approve: boolean; amount: number } | undefined = result.finalOutput;
    expect(typed).toEqual({ approve: true, amount: 30 });
    expect(JSON.parse(result.output)).toEqual(typed);
    expect(billingModel.calls).toHaveLength(2);
    const schema = routerModel.calls[0]!.tools![0]!.parameters as {
      properties: { routes: { maxItems?: number } };
    };
    expect(schema.properties.routes.maxItems).toBe(1);
  });

  it('refuses outputType with several routes or a topology member', () => {
    const refund = z.object({ approve: z.boolean() });
    const a = new Agent({ name: 'a', model: new ScriptedModel() });
    const b = new Agent({ name: 'b', model: new ScriptedModel() });
    expect(
      () =>
        new MultiAgentRouter({ agents: [a, b], model: 'openai:gpt-5.4', outputType: refund, maxRoutes: 2 }),
    ).toThrow(/maxRoutes must be 1/);
    const team = new MultiAgentRouter({ name: 'team', agents: [a], model: 'openai:gpt-5.4' });
    expect(
      () => new MultiAgentRouter({ agents: [a, team], model: 'openai:gpt-5.4', outputType: refund }),
    ).toThrow(ConfigError);
  });

  it('is built by its descriptor with the first agent as the router by default, and previews its worst case', () => {
    const a = new Agent({ name: 'a', model: new ScriptedModel(), maxTurns: 4 });
    const b = new Agent({ name: 'b', model: new ScriptedModel(), maxTurns: 2 });
    expect(multiAgentRouterDescriptor.create([a, b], {}).type).toBe('MultiAgentRouter');
    expect(multiAgentRouterDescriptor.worstCase?.([a, b], {})).toEqual({ maxCalls: 3 + 2 * 4 });
  });
});

topologyConformanceTests('MultiAgentRouter', {
  create: (model, { tools, guardrails }) =>
    new MultiAgentRouter({
      ...guardrails,
      agents: [new Agent({ name: 'a', model, tools }), new Agent({ name: 'b', model, tools })],
      model,
    }),
  model: () =>
    autoModel({
      override: (req) =>
        req.metadata?.purpose === 'route'
          ? {
              toolCalls: [
                {
                  name: 'route',
                  arguments: {
                    routes: [
                      { agentName: 'a', task: 'part one', reason: 'r' },
                      { agentName: 'b', task: 'part two', reason: 'r' },
                    ],
                  },
                },
              ],
            }
          : undefined,
    }),
});
