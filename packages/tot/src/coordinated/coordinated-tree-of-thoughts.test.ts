import { type SwarmEvent, tool } from '@swarm/core';
import { Gate, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CoordinatedTreeOfThoughts } from './coordinated-tree-of-thoughts.js';
import {
  downModel,
  eventsOf,
  pathOf,
  plannerModel,
  promptOf,
  scriptedTeam,
  statusesOf,
  synthesizerModel,
  thoughtOf,
} from './test-support.js';

const task = 'How could a small town halve its carbon emissions?';

describe('CoordinatedTreeOfThoughts: the workflow', () => {
  it('moves statuses as the seed says: generated, evaluated, then active or terminatedEarly', async () => {
    const team = scriptedTeam(
      { '': ['Insulate homes', 'Ban cars'], 'Insulate homes': ['Subsidize heat pumps'] },
      {
        analyzer: { 'Insulate homes': { score: 8 }, 'Ban cars': { score: 3 } },
        critic: { 'Ban cars': { score: 2, terminate: true } },
      },
    );
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 2, initialThoughts: 2 });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(statusesOf(events, 'root-0')).toEqual(['generated', 'evaluated', 'active']);
    expect(statusesOf(events, 'root-1')).toEqual(['generated', 'evaluated', 'terminatedEarly']);
    expect(statusesOf(events, 'root-0-0')).toEqual(['generated', 'evaluated', 'active']);
    const [insulate, ban] = result.root.children;
    expect(insulate).toMatchObject({ id: 'root-0', status: 'active', expanded: true, score: 6.5 });
    expect(ban).toMatchObject({ id: 'root-1', status: 'terminatedEarly', expanded: false, score: 2.5 });
    expect(ban!.evaluations.map((e) => [e.evaluator, e.terminate])).toEqual([
      ['analyzer', false],
      ['critic', true],
    ]);
    expect(result.root.status).toBe('active');
  });

  it('never asks the planner to continue a path an evaluator recommended stopping', async () => {
    const team = scriptedTeam(
      { '': ['Dead end', 'Good idea'], 'Good idea': ['Next step'] },
      { critic: { 'Dead end': { score: 6, terminate: true } } },
    );
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 3, initialThoughts: 2 });

    const result = await tot.run(task);

    const asked = team.planner.calls.map((c) => thoughtOf(c));
    expect(asked).toEqual(['', 'Good idea', 'Next step']);
    expect(result.root.children[0]!.children).toEqual([]);
  });

  it('ends the loop when no node is active and reports it', async () => {
    const team = scriptedTeam({ '': ['One', 'Two'] }, { fallback: { score: 4, terminate: true } });
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, initialThoughts: 2 });

    const result = await tot.run(task);

    expect(result.endedBy).toBe('noActiveNodes');
    expect(team.planner.calls).toHaveLength(1);
    expect(result.interrupted).toBe(false);
  });

  it('reports plannerFailed when every Planner call of a level failed, leaving its nodes active and unexpanded', async () => {
    const team = scriptedTeam({});
    const planner = plannerModel({ '': ['A', 'B'] }, undefined, ['A', 'B']);
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, planner },
      initialThoughts: 2,
      maxRepairs: 0,
    });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(result.endedBy).toBe('plannerFailed');
    expect(result.root.children.map((n) => [n.id, n.status, n.expanded])).toEqual([
      ['root-0', 'active', false],
      ['root-1', 'active', false],
    ]);
    expect(eventsOf(events, 'warning').map((e) => [e.agent, e.nodeId])).toEqual([
      ['planner', 'root-0'],
      ['planner', 'root-1'],
    ]);
    expect(result.interrupted).toBe(false);
  });

  it('reports plannerFailed when the one Planner call left active failed and the other paths stopped', async () => {
    const team = scriptedTeam({}, { critic: { B: { score: 3, terminate: true } } });
    const planner = plannerModel({ '': ['A', 'B'] }, undefined, ['A']);
    const tot = new CoordinatedTreeOfThoughts({ models: { ...team.models, planner }, initialThoughts: 2 });

    const result = await tot.run(task);

    expect(result.endedBy).toBe('plannerFailed');
    expect(result.root.children.map((n) => n.status)).toEqual(['active', 'terminatedEarly']);
  });

  it("asks for a dynamic number of thoughts from the parent's score: 3 from 8, 2 from 4 to 8, 1 below 4", async () => {
    const team = scriptedTeam(
      {
        '': ['High', 'Mid', 'Low'],
        High: ['h1', 'h2', 'h3', 'h4'],
        Mid: ['m1', 'm2', 'm3'],
        Low: ['l1', 'l2'],
      },
      {
        fallback: { score: 5 },
        // The boundaries: 8 asks for one more, 4 for the base 2, 3.5 (the mean of 4 and 3) for one fewer.
        analyzer: { High: { score: 8 }, Mid: { score: 4 }, Low: { score: 4 } },
        critic: { High: { score: 8 }, Mid: { score: 4 }, Low: { score: 3 } },
      },
    );
    const events: SwarmEvent[] = [];
    // No beam (the default keeps 2 nodes a level), so the Low node is expanded too.
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 2, beamWidth: Infinity });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    const asks = team.planner.calls.map((c) => [
      thoughtOf(c),
      /Propose (\d+) distinct/.exec(promptOf(c))?.[1],
    ]);
    expect(asks).toEqual([
      ['', '3'],
      ['High', '3'],
      ['Mid', '2'],
      ['Low', '1'],
    ]);
    expect(result.root.children.map((n) => n.children.map((c) => c.thought))).toEqual([
      ['h1', 'h2', 'h3'],
      ['m1', 'm2'],
      ['l1'],
    ]);
    const extra = eventsOf(events, 'tot.node').filter((e) => e.change === 'rejected');
    expect(extra.map((e) => e.nodeId)).toEqual(['root-0-3', 'root-1-2', 'root-2-1']);
  });
});

describe('CoordinatedTreeOfThoughts: concurrency', () => {
  it('asks the planner for every active node at once, and attaches children in tree order', async () => {
    const gate = new Gate();
    const children: Record<string, string[]> = { '': ['A', 'B'], A: ['A1'], B: ['B1'] };
    const planner = new ScriptedModel([], {
      fallback: respond(async (request) => {
        const thought = thoughtOf(request);
        // The later node's planner call answers first.
        if (thought === 'A') await gate.wait();
        const name = (request.toolChoice as { name: string }).name;
        return { toolCalls: [{ name, arguments: { thoughts: children[thought] ?? [] } }] };
      }),
    });
    const team = scriptedTeam({});
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, planner },
      maxDepth: 2,
      initialThoughts: 2,
    });

    const running = tot.run(task);
    await gate.until(1);
    while (planner.calls.length < 3) await new Promise((r) => setImmediate(r));
    expect(planner.calls.map((c) => thoughtOf(c))).toEqual(['', 'A', 'B']);
    gate.open();
    const result = await running;

    expect([...result.root.walk()].map((n) => n.id)).toEqual([
      'root',
      'root-0',
      'root-0-0',
      'root-1',
      'root-1-0',
    ]);
  });
});

describe('CoordinatedTreeOfThoughts: the validator', () => {
  it('keeps a node that fails validation out of the tree and says why in the trace', async () => {
    const team = scriptedTeam({ '': ['Plant trees', '', '   ', 'plant  TREES', 'Solar roofs'] });
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 1, initialThoughts: 5 });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(result.root.children.map((n) => [n.id, n.thought])).toEqual([
      ['root-0', 'Plant trees'],
      ['root-4', 'Solar roofs'],
    ]);
    const rejected = eventsOf(events, 'tot.node').filter((e) => e.change === 'rejected');
    expect(rejected.map((e) => [e.nodeId, e.reason])).toEqual([
      ['root-1', 'thought: the thought is empty'],
      ['root-2', 'thought: the thought is empty'],
      ['root-3', 'it repeats root-0'],
    ]);
    // Rejected thoughts are never evaluated.
    expect(team.analyzer.calls.map((c) => thoughtOf(c))).toEqual(['Plant trees', 'Solar roofs']);
  });
});

describe('CoordinatedTreeOfThoughts: evaluation', () => {
  it("scores a node with the mean of its evaluators and keeps a node's findings, reasons and verdicts", async () => {
    const team = scriptedTeam(
      { '': ['Bike lanes'] },
      { analyzer: { 'Bike lanes': { score: 9 } }, critic: { 'Bike lanes': { score: 6 } } },
    );
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 1, initialThoughts: 1 });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    const node = result.root.children[0]!;
    expect(node.score).toBe(7.5);
    expect(node.evaluations).toEqual([
      { evaluator: 'analyzer', score: 9, terminate: false, reasons: ['analyzer on Bike lanes'] },
      { evaluator: 'critic', score: 6, terminate: false, reasons: ['critic on Bike lanes'] },
    ]);
    expect(eventsOf(events, 'tot.evaluate')).toMatchObject([
      { nodeId: 'root-0', score: 7.5, terminate: false },
    ]);
  });

  it('scores from the evaluator that answered when the other fails, with a warning', async () => {
    const team = scriptedTeam({ '': ['Bike lanes'] }, { analyzer: { 'Bike lanes': { score: 8 } } });
    const critic = downModel('critic is down');
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, critic },
      maxDepth: 1,
      initialThoughts: 1,
    });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(result.root.children[0]).toMatchObject({ score: 8, status: 'active' });
    expect(eventsOf(events, 'warning')).toMatchObject([
      { agent: 'critic', nodeId: 'root-0', message: expect.stringContaining('critic is down') },
    ]);
  });

  it('leaves a node no evaluator could judge unscored, never expanded', async () => {
    const team = scriptedTeam({ '': ['Bike lanes'], 'Bike lanes': ['more'] });
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, analyzer: downModel(), critic: downModel() },
      initialThoughts: 1,
    });

    const result = await tot.run(task);

    expect(result.root.children[0]).toMatchObject({ status: 'generated', score: null });
    expect(team.planner.calls).toHaveLength(1);
    expect(result.endedBy).toBe('evaluationFailed');
    expect(result.synthesisBasis).toBe('none');
    expect(result.answer).toBe('answer from the problem alone');
  });

  it('runs the researcher with its tools first, then the analyzer and the critic at once on its findings', async () => {
    const gate = new Gate();
    const searched: string[] = [];
    const search = tool({
      name: 'web_search',
      description: 'Searches the web.',
      parameters: z.object({ query: z.string() }),
      execute: ({ query }) => {
        searched.push(query);
        return `Heat pumps cut emissions by 60% (source: ${query})`;
      },
    });
    const researcher = new ScriptedModel([
      toolCall('web_search', { query: 'heat pumps' }),
      reply('Heat pumps cut emissions by 60%.'),
    ]);
    const judge = (id: string) =>
      new ScriptedModel([], {
        fallback: respond(async (request) => {
          await gate.wait();
          return {
            toolCalls: [
              {
                name: String((request.toolChoice as { name: string }).name),
                arguments: { score: 7, terminate: true, reasons: [id] },
              },
            ],
          };
        }),
      });
    const analyzer = judge('analyzer');
    const critic = judge('critic');
    const tot = new CoordinatedTreeOfThoughts({
      models: {
        planner: plannerModel({ '': ['Heat pumps'] }),
        researcher,
        analyzer,
        critic,
        synthesizer: synthesizerModel(),
      },
      researchTools: [search],
      initialThoughts: 1,
    });

    const running = tot.run(task);
    await gate.until(2);
    expect(researcher.calls).toHaveLength(2);
    expect(gate.waiting).toBe(2);
    gate.open();
    const result = await running;

    expect(searched).toEqual(['heat pumps']);
    expect(result.researched).toBe(true);
    expect(result.root.children[0]!.research).toBe('Heat pumps cut emissions by 60%.');
    expect(promptOf(analyzer.calls[0]!)).toContain('RESEARCH FINDINGS:\nHeat pumps cut emissions by 60%.');
    expect(researcher.calls[0]!.tools?.map((t) => t.name)).toEqual(['web_search']);
  });

  it('shows the researcher the whole path down to the node it researches', async () => {
    const search = tool({
      name: 'web_search',
      description: 'Searches the web.',
      parameters: z.object({ query: z.string() }),
      execute: () => 'nothing',
    });
    const researcher = new ScriptedModel([], { fallback: reply('facts') });
    const team = scriptedTeam({ '': ['Heat pumps'], 'Heat pumps': ['Subsidies'] });
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, researcher },
      researchTools: [search],
      maxDepth: 2,
      initialThoughts: 1,
    });

    await tot.run(task);

    expect(researcher.calls.map((c) => pathOf(c))).toEqual([['Heat pumps'], ['Heat pumps', 'Subsidies']]);
  });

  it('skips research when the researcher has no tool', async () => {
    const team = scriptedTeam({ '': ['Bike lanes'] });
    const researcher = new ScriptedModel();
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, researcher },
      maxDepth: 1,
      initialThoughts: 1,
    });

    const result = await tot.run(task);

    expect(researcher.calls).toHaveLength(0);
    expect(result.researched).toBe(false);
    expect(result.root.children[0]!.research).toBeNull();
    expect(promptOf(team.analyzer.calls[0]!)).toContain('(no research was done for this thought)');
  });
});

describe('CoordinatedTreeOfThoughts: synthesis', () => {
  it('synthesizes from every node scoring at least the threshold, across the tree, each with its path', async () => {
    const team = scriptedTeam(
      { '': ['A', 'B', 'C'], A: ['A1', 'A2'] },
      {
        fallback: { score: 5 },
        analyzer: { A: { score: 7 }, B: { score: 9 }, A2: { score: 8 } },
        critic: { A: { score: 7 }, B: { score: 9 }, A2: { score: 8 } },
      },
    );
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, maxDepth: 2 });

    const result = await tot.run(task, { onEvent: (e) => events.push(e) });

    expect(result.synthesisBasis).toBe('threshold');
    expect(result.synthesized.map((n) => [n.id, n.score, n.path])).toEqual([
      ['root-1', 9, ['B']],
      ['root-0-1', 8, ['A', 'A2']],
      ['root-0', 7, ['A']],
    ]);
    expect(result.answer).toBe('answer from root-1, root-0-1, root-0');
    expect(promptOf(team.synthesizer.calls[0]!)).toContain('root-0-1 (score 8.0/10):\n  1. A\n  2. A2');
    expect(eventsOf(events, 'tot.synthesize')).toMatchObject([
      { basis: 'threshold', nodes: [{ id: 'root-1' }, { id: 'root-0-1' }, { id: 'root-0' }] },
    ]);
  });

  it('sends at most maxSynthesisNodes of the nodes above the threshold to the synthesizer, best first', async () => {
    const team = scriptedTeam(
      { '': ['A', 'B', 'C', 'D'] },
      {
        fallback: { score: 1, terminate: true },
        analyzer: { A: { score: 7 }, B: { score: 9 }, C: { score: 8 }, D: { score: 10 } },
        critic: { A: { score: 7 }, B: { score: 9 }, C: { score: 8 }, D: { score: 10 } },
      },
    );
    const capped = new CoordinatedTreeOfThoughts({
      models: team.models,
      maxDepth: 1,
      initialThoughts: 4,
      maxSynthesisNodes: 2,
    });

    const result = await capped.run(task);

    expect(result.synthesisBasis).toBe('threshold');
    expect(result.synthesized.map((n) => [n.id, n.score])).toEqual([
      ['root-3', 10],
      ['root-1', 9],
    ]);
    const prompt = promptOf(team.synthesizer.calls[0]!);
    expect(prompt).toContain('root-3');
    expect(prompt).not.toContain('root-2');
    expect(() => new CoordinatedTreeOfThoughts({ models: team.models, maxSynthesisNodes: 0 })).toThrow(
      /maxSynthesisNodes/,
    );
  });

  it('falls back to the top N nodes when none reaches the threshold', async () => {
    const team = scriptedTeam(
      { '': ['A', 'B', 'C', 'D'] },
      {
        fallback: { score: 1, terminate: true },
        analyzer: { A: { score: 3 }, B: { score: 6 }, C: { score: 5 } },
        critic: { A: { score: 3 }, B: { score: 6 }, C: { score: 5 } },
      },
    );
    const tot = new CoordinatedTreeOfThoughts({ models: team.models, initialThoughts: 4, topN: 2 });

    const result = await tot.run(task);

    expect(result.synthesisBasis).toBe('topN');
    expect(result.synthesized.map((n) => n.id)).toEqual(['root-1', 'root-2']);
    expect(result.output).toBe('answer from root-1, root-2');
  });

  it('asks the synthesizer once more, then fails with EmptyAnswerError, when it answers with nothing', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const synthesizer = new ScriptedModel([], { fallback: reply('  ') });
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, synthesizer },
      maxDepth: 1,
      initialThoughts: 1,
    });

    await expect(tot.run(task)).rejects.toMatchObject({
      name: 'EmptyAnswerError',
      code: 'NO_ANSWER',
      attempts: 2,
    });
    expect(synthesizer.calls).toHaveLength(2);
  });

  it('throws when the synthesizer fails instead of returning an error string as the answer', async () => {
    const team = scriptedTeam({ '': ['A'] });
    const synthesizer = downModel('synthesizer is down');
    const events: SwarmEvent[] = [];
    const tot = new CoordinatedTreeOfThoughts({
      models: { ...team.models, synthesizer },
      maxDepth: 1,
      initialThoughts: 1,
    });

    await expect(tot.run(task, { onEvent: (e) => events.push(e) })).rejects.toThrow(/synthesizer is down/);
    expect(events.at(-1)?.type).toBe('run.error');
  });
});
