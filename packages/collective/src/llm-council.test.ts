import { Agent, ConfigError, type ModelRequest, messageText, type SwarmEvent } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { LLMCouncil } from './llm-council.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { forced, offeredIds, reverseFinish, scripted, shown } from './test-helpers.js';

const task = 'Why is the sky blue?';

// A member that answers `answer` and ranks with `rank(idsShown)`.
function member(name: string, answer: string, rank: (ids: string[]) => string[] = (ids) => ids) {
  return scripted(name, (request: ModelRequest) => {
    if (typeof request.toolChoice !== 'object') return answer;
    const ids = [...messageText(request.messages[0]!).matchAll(/Response ([A-Z]\d*):/g)].map((m) => m[1]!);
    return forced(request, { ranking: rank(ids) });
  });
}

describe('LLMCouncil', () => {
  it('gives answers anonymous ids in member order even when they finish in reverse', async () => {
    const order = reverseFinish(3);
    const members = ['ada', 'bob', 'cy'].map(
      (name, i) =>
        scripted(name, async (request) => {
          if (typeof request.toolChoice === 'object') return forced(request, { ranking: [] });
          await order.hold(i);
          return `${name}'s answer`;
        }).agent,
    );
    const council = new LLMCouncil({
      members,
      chairman: scripted('chair', () => 'final').agent,
      maxRepairs: 0,
    });
    const result = await council.run(task);
    expect(order.finished).toEqual([2, 1, 0]);
    expect(result.answers).toEqual([
      { member: 'ada', id: 'A', output: "ada's answer" },
      { member: 'bob', id: 'B', output: "bob's answer" },
      { member: 'cy', id: 'C', output: "cy's answer" },
    ]);
  });

  it("has each member rank only the others' answers, shown by id without any name", async () => {
    const ada = member('ada', 'Rayleigh scattering');
    const bob = member('bob', 'Ocean reflection');
    const cy = member('cyrus', 'Short wavelengths scatter');
    await new LLMCouncil({
      members: [ada.agent, bob.agent, cy.agent],
      chairman: scripted('chair', () => 'x').agent,
    }).run(task);

    const adaRanks = shown(ada.model.calls.find((c) => typeof c.toolChoice === 'object'));
    expect(adaRanks).toContain('Response B:\nOcean reflection');
    expect(adaRanks).toContain('Response C:\nShort wavelengths scatter');
    expect(adaRanks).not.toContain('Rayleigh scattering');
    for (const name of ['ada', 'bob', 'cyrus']) expect(adaRanks).not.toContain(name);
    expect(
      ada.model.calls.find((c) => typeof c.toolChoice === 'object')?.tools?.[0]?.parameters,
    ).toMatchObject({
      properties: { ranking: { items: { enum: ['B', 'C'] } } },
    });
  });

  it('shows each ranker the others in cyclic order after itself, so each answer leads once', async () => {
    const shownOrder = new Map<string, string[]>();
    const members = ['ada', 'bob', 'cy', 'dee'].map((name) =>
      member(name, `${name}'s answer`, (ids) => {
        shownOrder.set(name, ids);
        return ids;
      }),
    );
    await new LLMCouncil({
      members: members.map((m) => m.agent),
      chairman: scripted('chair', () => 'x').agent,
    }).run(task);
    expect(Object.fromEntries(shownOrder)).toEqual({
      ada: ['B', 'C', 'D'],
      bob: ['C', 'D', 'A'],
      cy: ['D', 'A', 'B'],
      dee: ['A', 'B', 'C'],
    });
    // The schema offers the ids in the order shown, and the description lists them so.
    const bobRank = members[1]!.model.calls.find((c) => typeof c.toolChoice === 'object');
    expect(offeredIds(bobRank!)).toEqual(['C', 'D', 'A']);
    // Every answer appears at every position exactly once over the four rankers.
    for (let position = 0; position < 3; position++) {
      const atPosition = [...shownOrder.values()].map((ids) => ids[position]);
      expect(new Set(atPosition).size).toBe(4);
    }
  });

  it('aggregates by mean rank and gives the chairman the aggregate ranking by anonymous id only', async () => {
    const chair = scripted('chair', () => 'The sky is blue because of Rayleigh scattering.');
    const council = new LLMCouncil({
      members: [
        member('ada', 'A-text', () => ['C', 'B']).agent,
        member('bob', 'B-text', () => ['C', 'A']).agent,
        member('cyrus', 'C-text', () => ['A', 'B']).agent,
      ],
      chairman: chair.agent,
    });

    const result = await council.run(task);

    expect(result.rankings).toEqual([
      { member: 'ada', ranking: ['C', 'B'] },
      { member: 'bob', ranking: ['C', 'A'] },
      { member: 'cyrus', ranking: ['A', 'B'] },
    ]);
    expect(result.aggregate).toEqual([
      { id: 'C', score: 1, rankedBy: 2 },
      { id: 'A', score: 1.5, rankedBy: 2 },
      { id: 'B', score: 2, rankedBy: 2 },
    ]);
    const chairInput = shown(chair.model.lastCall);
    expect(chairInput).toMatch(
      /1\. Response C: mean rank 1\.00\n2\. Response A: mean rank 1\.50\n3\. Response B/,
    );
    for (const name of ['ada', 'bob', 'cyrus']) expect(chairInput).not.toContain(name);
    expect(chair.model.lastCall?.messages.every((m) => m.name === undefined)).toBe(true);
    expect(result.output).toBe('The sky is blue because of Rayleigh scattering.');
  });

  it('asks again when a ranking repeats an id, and counts the corrected one', async () => {
    let tries = 0;
    const picky = member('ada', 'A-text', (ids) => (++tries === 1 ? [ids[0]!, ids[0]!] : [...ids].reverse()));
    const result = await new LLMCouncil({
      members: [picky.agent, member('bob', 'B-text').agent, member('cy', 'C-text').agent],
      chairman: scripted('chair', () => 'x').agent,
    }).run(task);
    expect(result.rankings[0]).toEqual({ member: 'ada', ranking: ['C', 'B'] });
    expect(tries).toBe(2);
  });

  it('records a member that fails to answer and goes on with the others', async () => {
    const broken = new Agent({
      name: 'broken',
      model: new ScriptedModel([{ kind: 'fail', error: new Error('down') }], {
        fallback: { kind: 'respond', fn: (r) => forced(r, { ranking: ['A', 'B'] }) },
      }),
    });
    const result = await new LLMCouncil({
      members: [member('ada', 'A-text').agent, broken, member('cy', 'C-text').agent],
      chairman: scripted('chair', () => 'x').agent,
    }).run(task);
    expect(result.answers.map((a) => [a.member, a.id])).toEqual([
      ['ada', 'A'],
      ['cy', 'B'],
    ]);
    expect(result.failures).toEqual([{ agent: 'broken', stage: 'answer', error: 'down' }]);
    // The member that gave no answer still ranks both; the others have only one answer to rank.
    expect(result.rankings).toEqual([{ member: 'broken', ranking: ['A', 'B'] }]);
  });

  it('lets a Topology member answer and be ranked, without ranking', async () => {
    const moa = new MixtureOfAgents({
      name: 'moa',
      agents: [scripted('x', () => 'moa-text').agent],
      aggregator: scripted('x-agg', () => 'moa-text').agent,
      layers: 1,
    });
    const result = await new LLMCouncil({
      members: [moa, member('bob', 'B-text').agent, member('cy', 'C-text').agent],
      chairman: scripted('chair', () => 'x').agent,
    }).run(task);
    expect(result.answers[0]).toEqual({ member: 'moa', id: 'A', output: 'moa-text' });
    expect(result.rankings.map((r) => r.member)).toEqual(['bob', 'cy']);
  });

  it('answers with the best-ranked answer when the budget stops it before the chairman', async () => {
    const chair = scripted('chair', () => 'never');
    const result = await new LLMCouncil({
      members: [
        member('ada', 'A-text', () => ['C', 'B']).agent,
        member('bob', 'B-text', () => ['C', 'A']).agent,
        member('cy', 'C-text', () => ['A', 'B']).agent,
      ],
      chairman: chair.agent,
    }).run(task, { budget: { maxCalls: 6 } });
    expect(result).toMatchObject({ output: 'C-text', interrupted: true, interruptionReason: 'budget:calls' });
    expect(chair.model.calls).toHaveLength(0);
  });

  it('skips ranking and the chair when the budget runs out while members answer', async () => {
    const chair = scripted('chair', () => 'never');
    const result = await new LLMCouncil({
      members: [member('ada', 'A-text').agent, member('bob', 'B-text').agent, member('cy', 'C-text').agent],
      chairman: chair.agent,
      maxWorkers: 1,
    }).run(task, { budget: { maxCalls: 2 } });
    expect(result.answers.map((a) => a.output)).toEqual(['A-text', 'B-text']);
    expect(result.rankings).toEqual([]);
    expect(result.failures).toEqual([
      { agent: 'cy', stage: 'answer', error: expect.stringMatching(/budget/) },
    ]);
    expect(result.aggregate).toEqual([
      { id: 'A', score: null, rankedBy: 0 },
      { id: 'B', score: null, rankedBy: 0 },
    ]);
    expect(result).toMatchObject({ output: 'A-text', interrupted: true, interruptionReason: 'budget:calls' });
    expect(chair.model.calls).toHaveLength(0);
  });

  it('emits council.aggregate with the aggregate ranking', async () => {
    const events: SwarmEvent[] = [];
    const result = await new LLMCouncil({
      members: [
        member('ada', 'A-text', () => ['C', 'B']).agent,
        member('bob', 'B-text', () => ['C', 'A']).agent,
        member('cyrus', 'C-text', () => ['A', 'B']).agent,
      ],
      chairman: scripted('chair', () => 'final').agent,
    }).run(task, { onEvent: (e) => events.push(e) });
    const emitted = events.filter((e) => e.type === 'council.aggregate');
    expect(emitted).toEqual([expect.objectContaining({ aggregate: result.aggregate })]);
    expect(result.aggregate.map((a) => a.id)).toEqual(['C', 'A', 'B']);
  });

  it('rejects fewer than three members and a missing chairman', () => {
    const a = member('a', '').agent;
    const b = member('b', '').agent;
    expect(() => new LLMCouncil({ members: [a, b], chairman: a })).toThrow(/at least 3/);
    expect(
      () => new LLMCouncil({ members: [a, b, member('c', '').agent], chairman: undefined as never }),
    ).toThrow(ConfigError);
  });
});
