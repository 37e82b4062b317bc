import {
  AbortError,
  Agent,
  BaseTopology,
  ConfigError,
  estimateUsage,
  Limiter,
  RunContext,
  type RunOptions,
  runTopology,
  type SwarmEvent,
  sumUsage,
  type TopologyResult,
  tool,
} from '@swarm/core';
import { Gate, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CoordinatedTreeOfThoughts } from './coordinated-tree-of-thoughts.js';
import {
  downModel,
  evaluatorModel,
  plannerModel,
  promptOf,
  scriptedTeam,
  synthesizerModel,
  thoughtOf,
} from './test-support.js';

const task = 'How could a small town halve its carbon emissions?';

// Every thought has two children and every evaluator wants to go on: only a bound can stop it.
const endless: Record<string, string[]> = new Proxy(
  {},
  { get: (_, thought: string) => [`${thought || 'S'}.a`, `${thought || 'S'}.b`] },
);

describe('CoordinatedTreeOfThoughts: bounds', () => {
  it('stops at maxDepth: no thought deeper, the cut paths left active, the bound reported', async () => {
    const team = scriptedTeam(endless, { fallback: { score: 6 } });
    // No beam (the default keeps 2 nodes a level): every node of level 1 is expanded.
    const tot = new CoordinatedTreeOfThoughts({
      models: team.models,
      maxDepth: 2,
      initialThoughts: 2,
      beamWidth: Infinity,
    });

    const result = await tot.run(task);

    const nodes = [...result.root.walk()];
    expect(Math.max(...nodes.map((n) => n.depth))).toBe(2);
    expect(nodes.filter((n) => n.depth === 2).map((n) => [n.status, n.expanded])).toEqual(
      Array.from({ length: 4 }, () => ['active', false]),
    );
    expect(result.endedBy).toBe('maxDepth');
    expect(result.interrupted).toBe(false);
    expect(team.planner.calls).toHaveLength(3);
  });

  it('keeps the best 2 nodes of a level active by default, so a level stays within 12 evaluations', async () => {
    const scores = { 'S.a': { score: 5 }, 'S.b': { score: 9 }, 'S.c': { score: 7 } };
    const threeStrategies: Record<string, string[]> = new Proxy(
      {},
      { get: (_, thought: string) => (thought === '' ? ['S.a', 'S.b', 'S.c'] : endless[thought]) },
    );
    const team = scriptedTeam(threeStrategies, { fallback: { score: 6 }, analyzer: scores, critic: scores });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 2 });

    const result = await tot.run(task);

    const status = Object.fromEntries(result.root.children.map((n) => [n.thought, n.status]));
    expect(status).toEqual({ 'S.a': 'evaluated', 'S.b': 'active', 'S.c': 'active' });
    expect(team.planner.calls.map((c) => thoughtOf(c))).toEqual(['', 'S.b', 'S.c']);
  });

  it('keeps only the best beamWidth nodes of a level active; the rest stay evaluated', async () => {
    const scores = { 'S.a': { score: 5 }, 'S.b': { score: 9 }, 'S.b.a': { score: 8 }, 'S.b.b': { score: 4 } };
    const team = scriptedTeam(endless, { fallback: { score: 6 }, analyzer: scores, critic: scores });
    const tot = new CoordinatedTreeOfThoughts({
      models: team.models,
      maxDepth: 3,
      beamWidth: 1,
      initialThoughts: 2,
    });

    const result = await tot.run(task);

    const status = Object.fromEntries([...result.root.walk()].map((n) => [n.thought, n.status]));
    expect(status).toMatchObject({
      'S.a': 'evaluated',
      'S.b': 'active',
      'S.b.a': 'active',
      'S.b.b': 'evaluated',
    });
    expect(team.planner.calls.map((c) => thoughtOf(c))).toEqual(['', 'S.b', 'S.b.a']);
    expect(result.endedBy).toBe('maxDepth');
  });

  it('stops exploring when the call budget runs out, keeps one call to synthesize, and marks the result', async () => {
    const team = scriptedTeam(endless, { fallback: { score: 8 } });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, initialThoughts: 2 });

    const result = await tot.run(task, { budget: { maxCalls: 6 } });

    expect(result.llmCalls).toBe(6);
    expect(result).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:calls',
      endedBy: 'budget',
    });
    expect(team.synthesizer.calls).toHaveLength(1);
    // 1 plan + 2 nodes x 2 evaluations = 5 calls: the two strategies are scored and synthesized.
    expect(result.synthesized.map((n) => n.id)).toEqual(['root-0', 'root-1']);
    expect(result.answer).toBe('answer from root-0, root-1');
  });

  it("keeps the synthesis call even from a researcher agent's tool loop", async () => {
    const team = scriptedTeam(endless, { fallback: { score: 8 } });
    const search = tool({
      name: 'search',
      description: 'Searches.',
      parameters: z.object({ q: z.string() }),
      execute: () => 'more to read',
    });
    // A researcher that never stops searching.
    const researcher = new Agent({
      name: 'digger',
      model: new ScriptedModel([], { fallback: toolCall('search', { q: 'again' }) }),
      tools: [search],
    });
    const tot = new CoordinatedTreeOfThoughts({ models: { ...team.models, researcher }, initialThoughts: 1 });

    const result = await tot.run(task, { budget: { maxCalls: 5 } });

    expect(result.roles.planner.llmCalls + result.roles.researcher.llmCalls).toBe(4);
    expect(result.roles.synthesizer.llmCalls).toBe(1);
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls', llmCalls: 5 });
  });

  it('leaves a node the budget kept from evaluation generated, and answers from the rest', async () => {
    const team = scriptedTeam(endless, { fallback: { score: 8 } });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, initialThoughts: 2, maxWorkers: 1 });

    const result = await tot.run(task, { budget: { maxCalls: 4 } });

    expect(result.root.children.map((n) => [n.id, n.status, n.evaluations.length])).toEqual([
      ['root-0', 'active', 2],
      ['root-1', 'generated', 0],
    ]);
    expect(result.synthesized.map((n) => n.id)).toEqual(['root-0']);
    expect(result.interrupted).toBe(true);
  });

  it("with a token budget, keeps the costliest call's tokens for the synthesis", async () => {
    const team = scriptedTeam(endless, { fallback: { score: 8 } });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, initialThoughts: 2 });

    const result = await tot.run(task, { budget: { maxTokens: 100 } });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:tokens' });
    expect(team.synthesizer.calls).toHaveLength(1);
    // A token budget is checked before each call: the synthesis started with tokens left for it.
    const beforeSynthesis = result.usage.totalTokens - result.roles.synthesizer.usage.totalTokens;
    expect(100 - beforeSynthesis).toBeGreaterThanOrEqual(15);
  });

  it('with a token budget, keeps what the real synthesis prompt costs, however cheap the exploration calls', async () => {
    // Exploration calls cost 15 tokens each; the synthesis prompt (a long problem and the chosen
    // paths) costs its estimated size, as a provider without usage is counted.
    const longTask = `${task} ${'Consider transport, heating, power and food in turn. '.repeat(12)}`;
    const team = scriptedTeam(endless, { fallback: { score: 8 } });
    const synthesizer = new ScriptedModel([], {
      fallback: respond((request) => ({
        text: 'the answer',
        usage: { inputTokens: estimateUsage(request, '', []).inputTokens, outputTokens: 5 },
      })),
    });
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, synthesizer },
      initialThoughts: 2,
      maxWorkers: 1,
    });

    const result = await tot.run(longTask, { budget: { maxTokens: 1_000 } });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:tokens' });
    const synthesis = result.roles.synthesizer.usage.totalTokens;
    expect(synthesis).toBeGreaterThan(150);
    const beforeSynthesis = result.usage.totalTokens - synthesis;
    expect(1_000 - beforeSynthesis).toBeGreaterThanOrEqual(synthesis);
    expect(result.usage.totalTokens).toBeLessThanOrEqual(1_000);
  });

  it('rejects with AbortError when aborted mid-run', async () => {
    const controller = new AbortController();
    const team = scriptedTeam(endless);
    const analyzer = evaluatorModel('analyzer', {});
    const slow = new ScriptedModel([], {
      fallback: { kind: 'respond', fn: () => new Promise(() => controller.abort()) },
    });
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, analyzer, critic: slow },
      initialThoughts: 1,
    });
    const events: SwarmEvent[] = [];

    await expect(
      tot.run(task, { signal: controller.signal, onEvent: (e) => events.push(e) }),
    ).rejects.toBeInstanceOf(AbortError);
    // The abort is not a failed call: no warning, and it ends the run, not just the critic's call.
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(events.at(-1)?.type).toBe('run.error');
  });
});

describe('CoordinatedTreeOfThoughts: cost per role', () => {
  it("adds each role's usage and calls up to the run's total", async () => {
    const planner = plannerModel({ '': ['A', 'B'], A: ['A1'] }, { inputTokens: 100, outputTokens: 10 });
    const analyzer = evaluatorModel(
      'analyzer',
      { B: { score: 2, terminate: true } },
      { score: 6 },
      { inputTokens: 20, outputTokens: 2 },
    );
    const critic = evaluatorModel('critic', {}, { score: 6 }, { inputTokens: 30, outputTokens: 3 });
    const synthesizer = synthesizerModel({ inputTokens: 400, outputTokens: 40 });
    const tot = new CoordinatedTreeOfThoughts({
      models: { planner, analyzer, critic, synthesizer },
      maxDepth: 2,
      initialThoughts: 2,
    });

    const result = await tot.run(task);

    const { roles } = result;
    expect(Object.keys(roles)).toEqual(['planner', 'researcher', 'analyzer', 'critic', 'synthesizer']);
    expect([
      roles.planner.llmCalls,
      roles.researcher.llmCalls,
      roles.analyzer.llmCalls,
      roles.critic.llmCalls,
      roles.synthesizer.llmCalls,
    ]).toEqual([planner.calls.length, 0, analyzer.calls.length, critic.calls.length, 1]);
    expect(roles.planner.usage.totalTokens).toBe(110 * planner.calls.length);
    expect(roles.critic.usage.totalTokens).toBe(33 * critic.calls.length);
    expect(sumUsage(...Object.values(roles).map((r) => r.usage))).toEqual(result.usage);
    expect(Object.values(roles).reduce((sum, r) => sum + r.llmCalls, 0)).toBe(result.llmCalls);
  });

  it('counts a failed call against its role too', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const critic = downModel();
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, critic },
      maxDepth: 1,
      initialThoughts: 1,
      maxRepairs: 0,
    });

    const result = await tot.run(task);

    expect(result.roles.critic.llmCalls).toBe(1);
    expect(Object.values(result.roles).reduce((sum, r) => sum + r.llmCalls, 0)).toBe(result.llmCalls);
  });
});

class WritingTeam extends BaseTopology {
  readonly type = 'WritingTeam';
  readonly name = 'writing-team';
  constructor(readonly model: ScriptedModel) {
    super();
  }
  run(input: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task: input }, options, async (context) => {
      const { output } = await new Agent({ name: 'writer', model: this.model }).run(input, { context });
      return { output };
    });
  }
}

describe('CoordinatedTreeOfThoughts: roles as Agents and Topologies', () => {
  it('runs a planner Agent on its own model and instructions, and a synthesizer Topology nested in the run', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const planner = new Agent({
      name: 'strategist',
      instructions: 'You plan city climate policy.',
      model: team.planner,
    });
    const writerModel = new ScriptedModel([reply('A plan in three steps.')]);
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, planner, synthesizer: new WritingTeam(writerModel) },
      maxDepth: 1,
      initialThoughts: 1,
    });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(team.planner.calls[0]).toMatchObject({
      system: 'You plan city climate policy.',
      metadata: { agent: 'strategist', purpose: 'plan' },
    });
    expect(result.output).toBe('A plan in three steps.');
    expect(promptOf(writerModel.calls[0]!)).toContain('HIGH-SCORING THOUGHTS');
    expect(result.roles.synthesizer.llmCalls).toBe(1);
    const nested = events.find((e) => e.type === 'run.start' && e.topology === 'WritingTeam');
    expect(nested?.path).toEqual(['CoordinatedTreeOfThoughts', 'synthesizer', 'WritingTeam']);
  });

  it('refuses a Topology where a role must answer with structured output', () => {
    const team = scriptedTeam({});
    // What an untyped (JavaScript) caller could pass.
    const critic = new WritingTeam(new ScriptedModel()) as unknown as Agent;
    expect(() => new CoordinatedTreeOfThoughts({ models: { ...team.models, critic } })).toThrow(
      /models\.critic is a Topology, but the critic must answer with structured output: give an Agent or a model/,
    );
  });
});

describe('CoordinatedTreeOfThoughts: researcher options', () => {
  const search = tool({
    name: 'search',
    description: 'Searches.',
    parameters: z.object({ q: z.string() }),
    execute: () => '',
  });

  it('refuses researchTools for a Topology researcher, and a tool the researcher Agent already has', () => {
    const team = scriptedTeam({});
    const topology = new WritingTeam(new ScriptedModel());
    expect(
      () =>
        new CoordinatedTreeOfThoughts({
          models: { ...team.models, researcher: topology },
          researchTools: [search],
        }),
    ).toThrow(/a Topology researcher brings its own tools/);
    const agent = new Agent({ name: 'digger', model: new ScriptedModel(), tools: [search] });
    expect(
      () =>
        new CoordinatedTreeOfThoughts({
          models: { ...team.models, researcher: agent },
          researchTools: [search],
        }),
    ).toThrow(/researchTools has "search", which the researcher Agent "digger" already has/);
  });

  it('skips a researcher Agent without tools', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const model = new ScriptedModel();
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, researcher: new Agent({ name: 'idle', model }) },
      maxDepth: 1,
      initialThoughts: 1,
    });

    const result = await tot.run(task);

    expect(result.researched).toBe(false);
    expect(model.calls).toHaveLength(0);
  });
});

describe('CoordinatedTreeOfThoughts: rate limit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at most requestsPerMinute calls a minute by queueing, never by sleeping, and still aborts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const team = scriptedTeam(endless, { fallback: { score: 6 } });
    const tot = new CoordinatedTreeOfThoughts({
      models: team.models,
      requestsPerMinute: 2,
      initialThoughts: 1,
    });
    const controller = new AbortController();
    const made = () => team.planner.calls.length + team.analyzer.calls.length + team.critic.calls.length;

    const outcome = tot.run(task, { signal: controller.signal }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(59_999);
    expect(made()).toBe(2);
    // A minute after the first two started, the next two do.
    await vi.advanceTimersByTimeAsync(1);
    expect(made()).toBe(4);
    controller.abort();

    expect(await outcome).toBeInstanceOf(AbortError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('holds a shared limiter given to the run as well as its own limit', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const shared = new Limiter({ concurrency: 1 });
    const blocker = new Gate();
    const held = shared.run(() => blocker.wait());
    const tot = new CoordinatedTreeOfThoughts({
      models: team.models,
      requestsPerMinute: 100,
      maxDepth: 1,
      initialThoughts: 1,
    });

    const running = tot.run(task, { limiter: shared });
    await new Promise((r) => setImmediate(r));
    expect(team.planner.calls).toHaveLength(0);
    blocker.open();
    await held;
    const result = await running;

    expect(result.llmCalls).toBe(4);
    expect(shared.pending + shared.waiting).toBe(0);
  });
});

describe('CoordinatedTreeOfThoughts: result and options', () => {
  it('serializes the whole tree with statuses through toJSON', async () => {
    const team = scriptedTeam({ '': ['A', 'B'] }, { critic: { B: { score: 1, terminate: true } } });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 1, initialThoughts: 2 });

    const result = await tot.run(task);
    const json = JSON.parse(JSON.stringify(result));

    expect(json.tree).toMatchObject({
      id: 'root',
      thought: task,
      status: 'active',
      children: [
        { id: 'root-0', parentId: 'root', status: 'active', path: ['A'], score: 5 },
        { id: 'root-1', parentId: 'root', status: 'terminatedEarly', path: ['B'] },
      ],
    });
    expect(json).toMatchObject({
      llmCalls: result.llmCalls,
      usage: result.usage,
      endedBy: 'maxDepth',
      nodeCount: 3,
    });
    expect(json.roles.planner).toEqual(result.roles.planner);
  });

  it('joins a parent run: its calls count in the parent', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const parent = new RunContext({ topology: 'Outer' });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 1, initialThoughts: 1 });

    const result = await tot.run(task, { parent });

    expect(parent.llmCalls).toBe(result.llmCalls);
  });

  it.each([
    [{ model: 'gpt-5.4', maxDepth: 0 }, /maxDepth must be an integer >= 1 \(got 0\)/],
    [{ model: 'gpt-5.4', beamWidth: 1.5 }, /beamWidth must be an integer >= 1/],
    [{ model: 'gpt-5.4', scoreThreshold: 11 }, /scoreThreshold must be a number between 0 and 10 \(got 11\)/],
    [{ model: 'gpt-5.4', topN: 0 }, /topN must be an integer >= 1/],
    [{ model: 'gpt-5.4', requestsPerMinute: 0 }, /requestsPerMinute must be an integer >= 1/],
    [{ model: 'gpt-5.4', maxRepairs: -1 }, /maxRepairs must be an integer >= 0/],
    [{ model: 'gpt-5.4', initialThoughts: 0 }, /initialThoughts must be an integer >= 1/],
    [{ model: 'gpt-5.4', maxWorkers: 0 }, /maxWorkers must be an integer >= 1 or Infinity/],
    [{ model: 'gpt-5.4', name: ' ' }, /name must be a non-empty string/],
    [{ model: 'gpt-5.4', description: 3 }, /description must be a string/],
    [{ models: { planner: 'gpt-5.4' } }, /no model for the researcher|no model for the analyzer/],
    [{ model: 'gpt-5.4', models: { coordinator: 'gpt-5.4' } }, /not both/],
    [{ model: 'gpt-5.4', models: { judge: 'gpt-5.4' } }, /models\.judge is not a role/],
    [{ model: 'nope:model' }, /model: resolveModel: unknown provider "nope"/],
  ])('refuses bad options with a ConfigError naming them (%o)', (options, message) => {
    expect(() => new CoordinatedTreeOfThoughts(options as never)).toThrow(ConfigError);
    expect(() => new CoordinatedTreeOfThoughts(options as never)).toThrow(message);
  });

  it('uses models.coordinator as the default model of every role not given', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const tot = new CoordinatedTreeOfThoughts({
      models: {
        planner: team.planner,
        analyzer: team.analyzer,
        critic: team.critic,
        coordinator: team.synthesizer,
      },
      maxDepth: 1,
      initialThoughts: 1,
    });

    expect((await tot.run(task)).answer).toBe('answer from root-0');
  });

  it('refuses an empty task', async () => {
    const team = scriptedTeam({});
    await expect(new CoordinatedTreeOfThoughts({ models: team.models }).run('  ')).rejects.toThrow(
      ConfigError,
    );
  });
});
