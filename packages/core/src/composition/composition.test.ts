import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import { AbortError, BudgetExceededError, ConfigError } from '../kernel/errors.js';
import { RunContext, type RunOptions } from '../kernel/run-context.js';
import { asTool } from '../primitives/as-tool.js';
import { Gate } from '../testing/gate.js';
import { reply, respond, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { memberTurn, runMember, turnsAsText, validateMembers } from './member.js';
import { BaseTopology, type TopologyResult } from './topology.js';
import { budgetStop, runTopology } from './topology-run.js';

/** A one-step topology: its agent answers the task. Enough to nest. */
class Echo extends BaseTopology {
  readonly type = 'Echo';
  constructor(
    readonly name: string,
    readonly agent: Agent,
  ) {
    super();
  }
  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async (context) => {
      const { output } = await runMember(this.agent, task, context);
      return { output };
    });
  }
}

describe('nested runs (RunOptions.parent)', () => {
  it("stops at the outer budget when a nested topology's call would pass it", async () => {
    const inner = new Echo('inner', new Agent({ name: 'expert', model: new ScriptedModel([reply('42')]) }));
    const outerModel = new ScriptedModel([toolCall('inner', { task: 'the answer?' }), reply('It is 42.')]);
    const outer = new Agent({ name: 'lead', model: outerModel, tools: [inner.asTool()] });
    const run = outer.run('Ask the expert.', { budget: { maxCalls: 2 } });
    await expect(run).rejects.toBeInstanceOf(BudgetExceededError);
    // The outer call and the nested one were made; the third call was refused.
    expect(outerModel.calls).toHaveLength(1);
  });

  it("adds a nested run's usage and calls to the parent's totals exactly", async () => {
    const inner = new Echo(
      'inner',
      new Agent({
        name: 'expert',
        model: new ScriptedModel([reply('42', { usage: { inputTokens: 7, outputTokens: 3 } })]),
      }),
    );
    const outer = new Agent({
      name: 'lead',
      model: new ScriptedModel([toolCall('inner', { task: 'q' }), reply('It is 42.')]),
      tools: [inner.asTool()],
    });
    const parent = new RunContext();
    const result = await outer.run('Ask.', { context: parent });
    expect(result.output).toBe('It is 42.');
    expect(parent.llmCalls).toBe(3);
    expect(parent.usage).toEqual({
      inputTokens: 27,
      outputTokens: 13,
      cachedTokens: 0,
      reasoningTokens: 0,
      totalTokens: 40,
    });
  });

  it("forwards a nested run's events to the parent's listener with parentRunId and path", async () => {
    const events: SwarmEvent[] = [];
    const parent = new RunContext({ topology: 'Outer', onEvent: (e) => events.push(e) });
    const inner = new Echo('inner', new Agent({ name: 'expert', model: new ScriptedModel([reply('ok')]) }));
    await inner.run('task', { parent });
    expect(events.map((e) => e.type)).toEqual([
      'run.start',
      'agent.start',
      'model.request',
      'model.response',
      'agent.end',
      'run.end',
    ]);
    expect(events.every((e) => e.parentRunId === parent.runId && e.runId !== parent.runId)).toBe(true);
    expect(events[0]?.path).toEqual(['Outer', 'Echo']);
  });

  it("gives every ancestor's listener each event of a deeply nested run, once", async () => {
    const outerEvents: SwarmEvent[] = [];
    const middleEvents: SwarmEvent[] = [];
    const outer = new RunContext({ topology: 'A', onEvent: (e) => outerEvents.push(e) });
    const middle = new RunContext({ topology: 'B', parent: outer, onEvent: (e) => middleEvents.push(e) });
    const inner = new RunContext({ topology: 'C', parent: middle });
    inner.emit({ type: 'custom' });
    expect(outerEvents).toHaveLength(1);
    expect(middleEvents).toEqual(outerEvents);
    expect(outerEvents[0]).toMatchObject({
      runId: inner.runId,
      parentRunId: middle.runId,
      path: ['A', 'B', 'C'],
    });
  });

  it("holds the parent's token budget inside the nested run", async () => {
    const parent = new RunContext({ budget: { maxTokens: 15 } });
    const model = new ScriptedModel([reply('one'), reply('two')]);
    const child = new RunContext({ parent });
    await child.callModel(model, { messages: [{ role: 'user', content: 'x' }] });
    await expect(
      child.callModel(model, { messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      reason: 'budget:tokens',
    });
  });

  it("aborts a nested run when the parent's signal fires", async () => {
    const controller = new AbortController();
    const parent = new RunContext({ signal: controller.signal });
    const gate = new Gate();
    const model = new ScriptedModel([
      respond(async () => {
        await gate.wait();
        return 'late';
      }),
    ]);
    const inner = new Echo('inner', new Agent({ name: 'slow', model }));
    const running = inner.run('task', { parent });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });

  it('stops a nested run on its own signal too, without aborting the parent', async () => {
    const parent = new RunContext({ signal: new AbortController().signal });
    const own = new AbortController();
    const child = new RunContext({ parent, signal: own.signal });
    own.abort();
    expect(child.signal?.aborted).toBe(true);
    expect(parent.signal?.aborted).toBe(false);
  });
});

describe('asTool', () => {
  it('runs an agent as a tool nested in the calling run and returns its answer', async () => {
    const expert = new Agent({
      name: 'Tax Expert',
      description: 'Knows taxes.',
      model: new ScriptedModel([reply('File form 1120.')]),
    });
    const events: SwarmEvent[] = [];
    const lead = new Agent({
      name: 'lead',
      model: new ScriptedModel([toolCall('Tax_Expert', { task: 'Which form?' }), reply('Use 1120.')]),
      tools: [expert.asTool()],
    });
    const result = await lead.run('Corporate taxes?', { onEvent: (e) => events.push(e) });
    expect(result.toolCalls[0]?.result).toBe('File form 1120.');
    const nested = events.filter((e) => e.agent === 'Tax Expert');
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.every((e) => e.parentRunId === events[0]?.runId)).toBe(true);
    expect(lead.tools[0]?.description).toBe('Knows taxes.');
  });

  it('turns a nested failure into a tool error the calling model sees, not a crash', async () => {
    const broken = new Echo(
      'broken',
      new Agent({
        name: 'b',
        model: new ScriptedModel([{ kind: 'fail', error: new Error('provider down') }]),
      }),
    );
    const model = new ScriptedModel([toolCall('broken', { task: 'x' }), reply('Sorry, it failed.')]);
    const lead = new Agent({ name: 'lead', model, tools: [broken.asTool()] });
    const result = await lead.run('go');
    expect(result.output).toBe('Sorry, it failed.');
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(model.calls[1]?.messages.at(-1)?.content).toContain('provider down');
  });

  it('takes its own parameters and turns them into the task', async () => {
    const model = new ScriptedModel([reply('done')]);
    const inner = new Echo('inner', new Agent({ name: 'e', model }));
    const t = asTool(inner, {
      name: 'lookup',
      input: z.object({ city: z.string() }),
      toTask: ({ city }) => `Weather in ${city}?`,
    });
    await t.execute(
      { city: 'Oslo' },
      { agent: 'x', toolCallId: '1', signal: undefined, run: new RunContext() },
    );
    expect(model.lastCall?.messages).toEqual([{ role: 'user', content: 'Weather in Oslo?' }]);
  });
});

describe("an agent's totals include the runs its tools start", () => {
  const tokens = (total: number) => expect.objectContaining({ totalTokens: total });

  it('counts a topology called through asTool in llmCalls and usage, and its own calls apart', async () => {
    const forestLike = new Echo(
      'experts',
      new Agent({ name: 'expert', model: new ScriptedModel([reply('42')]) }),
    );
    const outer = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCall('experts', { task: 'q' }), reply('It is 42.')]),
      tools: [forestLike.asTool()],
    });
    const result = await outer.run('Ask the experts.', { budget: { maxCalls: 10 } });
    // What the models saw: two calls of the outer agent, one of the nested run, 15 tokens each.
    expect(result).toMatchObject({ llmCalls: 3, ownLlmCalls: 2, replayedCalls: 0, liveCalls: 3 });
    expect(result.usage).toEqual(tokens(45));
    expect(result.ownUsage).toEqual(tokens(30));
  });

  it('adds up three levels of nesting at every level', async () => {
    const deepest = new Agent({ name: 'deepest', model: new ScriptedModel([reply('leaf')]) });
    const middleAgent = new Agent({
      name: 'middle',
      model: new ScriptedModel([toolCall('deepest', { task: 'x' }), reply('mid')]),
      tools: [deepest.asTool()],
    });
    const middle = new Echo('middle-run', middleAgent);
    const top = new Agent({
      name: 'top',
      model: new ScriptedModel([toolCall('middle-run', { task: 'y' }), reply('top')]),
      tools: [middle.asTool()],
    });
    const seen: { name: string; llmCalls: number }[] = [];
    const parent = new RunContext({
      onEvent: (e) => {
        if (e.type === 'run.end') seen.push({ name: 'middle-run', llmCalls: e.llmCalls as number });
      },
    });
    const result = await top.run('go', { parent });
    expect(result).toMatchObject({ llmCalls: 5, ownLlmCalls: 2 });
    expect(result.usage).toEqual(tokens(75));
    // The Echo around `middle` counted its agent's 2 calls and the deepest agent's 1.
    expect(seen).toEqual([{ name: 'middle-run', llmCalls: 3 }]);
    expect(parent.llmCalls).toBe(5);
  });

  it("counts what its own tools started, not a sibling's, when agents share a topology's run", async () => {
    const helper = new Agent({ name: 'helper', model: new ScriptedModel([reply('help')]) });
    const withTool = new Agent({
      name: 'with-tool',
      model: new ScriptedModel([toolCall('helper', { task: 'x' }), reply('done')]),
      tools: [helper.asTool()],
    });
    const sibling = new Agent({ name: 'sibling', model: new ScriptedModel([reply('alone')]) });
    const shared = new RunContext({ topology: 'Pair' });
    const [a, b] = await Promise.all([
      runMember(withTool, 'task', shared),
      runMember(sibling, 'task', shared),
    ]);
    expect([a.llmCalls, b.llmCalls]).toEqual([3, 1]);
    expect((a.result as { ownLlmCalls: number }).ownLlmCalls).toBe(2);
    expect(shared.llmCalls).toBe(4);
  });
});

describe('members', () => {
  it('runs an Agent member in the same run and a Topology member nested in it', async () => {
    const agent = new Agent({ name: 'a', model: new ScriptedModel([reply('from agent')]) });
    const topology = new Echo(
      't',
      new Agent({ name: 'b', model: new ScriptedModel([reply('from topology')]) }),
    );
    const events: SwarmEvent[] = [];
    const host = new RunContext({ topology: 'Host', onEvent: (e) => events.push(e) });
    const [ra, rt] = [await runMember(agent, 'task', host), await runMember(topology, 'task', host)];
    expect([ra.output, rt.output]).toEqual(['from agent', 'from topology']);
    expect(ra.llmCalls + rt.llmCalls).toBe(host.llmCalls);
    expect(events.find((e) => e.agent === 'a')?.runId).toBe(host.runId);
    expect(events.find((e) => e.agent === 'b')?.parentRunId).toBe(host.runId);
  });

  it('stamps the events of a run a tool started with that tool call, and no other run', async () => {
    const inner = new Echo('t', new Agent({ name: 'b', model: new ScriptedModel([reply('inner answer')]) }));
    const outer = new Agent({
      name: 'a',
      model: new ScriptedModel([toolCall('ask', { task: 'x' }, { id: 'call_7' }), reply('done')]),
      tools: [asTool(inner, { name: 'ask' })],
    });
    const events: SwarmEvent[] = [];
    await outer.run('go', { onEvent: (e) => events.push(e) });
    const nested = events.filter((e) => e.parentRunId !== undefined);
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.every((e) => e.parentToolCallId === 'call_7')).toBe(true);
    expect(events.filter((e) => e.parentRunId === undefined).some((e) => 'parentToolCallId' in e)).toBe(
      false,
    );
  });

  it('gives a Topology member typed turns as one text, each headed by its speaker', () => {
    const text = turnsAsText([
      { role: 'user', content: 'Plan a trip.' },
      memberTurn('researcher', 'Go in May.'),
    ]);
    expect(text).toBe('[user]\nPlan a trip.\n\n[researcher]\nGo in May.');
  });

  it('rejects members that are not agents or topologies, and duplicate names', () => {
    const a = new Agent({ name: 'a', model: new ScriptedModel() });
    expect(() => validateMembers([a, { name: 'x' }], 'Team')).toThrow(/agents\[1\] is neither/);
    expect(() => validateMembers([a, a], 'Team')).toThrow(ConfigError);
    expect(() => validateMembers([], 'Team')).toThrow(/at least 1/);
    expect(() => validateMembers('a', 'Team')).toThrow(/must be an array/);
  });
});

describe('runTopology', () => {
  it('closes the trace with run.error and the code when the body fails', async () => {
    const events: SwarmEvent[] = [];
    const failing = runTopology(
      { type: 'T', name: 't' },
      {},
      { onEvent: (e) => events.push(e) },
      async () => {
        throw new ConfigError('bad');
      },
    );
    await expect(failing).rejects.toBeInstanceOf(ConfigError);
    expect(events.map((e) => [e.type, e.code])).toEqual([
      ['run.start', undefined],
      ['run.error', 'CONFIG'],
    ]);
  });

  it('names a budget stop and nothing else', () => {
    expect(budgetStop(new BudgetExceededError('budget:tokens', 'spent'))).toBe('budget:tokens');
    expect(budgetStop(new Error('other'))).toBeUndefined();
  });
});
