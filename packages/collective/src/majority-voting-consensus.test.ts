import { Agent, ConfigError } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { MajorityVoting } from './majority-voting.js';
import { majorityVotingDescriptor } from './majority-voting-descriptor.js';
import { scripted } from './test-helpers.js';

const task = 'Should a small bakery open on Sundays?';
// A voter that answers in free text: round n gives "<name> n".
const talker = (name: string) => scripted(name, (_req, i) => `${name} ${i + 1}`);

describe("MajorityVoting mode 'consensus'", () => {
  it('has a consensus agent weigh every free-text answer and answers with its consensus', async () => {
    const [a, b] = [talker('a'), talker('b')];
    const judge = scripted('judge', () => 'open on Sunday mornings');
    const voting = new MajorityVoting({
      agents: [a.agent, b.agent],
      consensusAgent: judge.agent,
      mode: 'consensus',
    });

    const result = await voting.run(task);

    expect(result.output).toBe('open on Sunday mornings');
    expect(result.mode).toBe('consensus');
    expect(a.model.calls[0]!.messages).toEqual([{ role: 'user', content: task }]);
    // No vote schema: free text, no forced function call.
    expect(a.model.calls[0]!.toolChoice).toBeUndefined();
    expect(judge.model.calls[0]!.messages.slice(0, 3)).toEqual([
      { role: 'user', content: task },
      { role: 'user', name: 'a', content: 'a 1' },
      { role: 'user', name: 'b', content: 'b 1' },
    ]);
    expect(result.rounds).toEqual([
      {
        answers: [
          { agent: 'a', output: 'a 1' },
          { agent: 'b', output: 'b 1' },
        ],
        failures: [],
        consensus: 'open on Sunday mornings',
      },
    ]);
    expect(result.tally).toEqual([]);
  });

  it('refines for maxLoops rounds: each voter sees the last answers (its own as assistant) and the consensus', async () => {
    const [a, b] = [talker('a'), talker('b')];
    const judge = scripted('judge', (_req, i) => `consensus ${i + 1}`);
    const voting = new MajorityVoting({
      agents: [a.agent, b.agent],
      consensusAgent: judge.agent,
      mode: 'consensus',
      maxLoops: 2,
    });

    const result = await voting.run(task);

    expect(result.rounds.map((r) => r.consensus)).toEqual(['consensus 1', 'consensus 2']);
    expect(result.output).toBe('consensus 2');
    const second = a.model.calls[1]!.messages;
    expect(second.slice(0, 4)).toEqual([
      { role: 'user', content: task },
      { role: 'assistant', content: 'a 1' },
      { role: 'user', name: 'b', content: 'b 1' },
      { role: 'user', name: 'consensus', content: 'consensus 1' },
    ]);
    expect(second.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/refined/) });
    expect(result.votes.map((v) => v.answer)).toEqual(['a 2', 'b 2']);
  });

  it("builds swarms' default consensus agent on the first voter's model", async () => {
    const model = new ScriptedModel([], {
      fallback: respond((req) => (req.metadata?.agent === 'consensus' ? 'weighed' : 'an answer')),
    });
    const voting = new MajorityVoting({
      agents: [new Agent({ name: 'a', model }), new Agent({ name: 'b', model })],
      mode: 'consensus',
    });
    expect(voting.consensusAgent?.name).toBe('consensus');
    const result = await voting.run(task);
    expect(result.output).toBe('weighed');
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['a', 'b', 'consensus']);
  });

  it('answers from the last consensus when the budget stops a later round', async () => {
    const [a, b] = [talker('a'), talker('b')];
    const judge = scripted('judge', (_req, i) => `consensus ${i + 1}`);
    const voting = new MajorityVoting({
      agents: [a.agent, b.agent],
      consensusAgent: judge.agent,
      mode: 'consensus',
      maxLoops: 3,
    });
    const result = await voting.run(task, { budget: { maxCalls: 5 } });
    expect(result).toMatchObject({
      output: 'consensus 1',
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
  });

  it('refuses a bad mode, and maxLoops in tally mode', () => {
    const agents = [talker('a').agent];
    expect(() => new MajorityVoting({ agents, mode: 'vote' as 'tally' })).toThrow(ConfigError);
    expect(() => new MajorityVoting({ agents, maxLoops: 2 })).toThrow(/maxLoops is for mode 'consensus'/);
  });

  it('takes mode and maxLoops from a descriptor config, with a worst case per round', async () => {
    const [a, b] = [talker('a'), talker('b')];
    const config = { mode: 'consensus' as const, maxLoops: 2 };
    const voting = majorityVotingDescriptor.create([a.agent, b.agent], config) as MajorityVoting;
    expect(voting).toMatchObject({ mode: 'consensus', maxLoops: 2 });
    const worst = majorityVotingDescriptor.worstCase!([a.agent, b.agent], config);
    expect(worst).toEqual({ maxCalls: 2 * (2 + 1) });
    const result = await voting.run(task);
    expect(result.llmCalls).toBe(worst.maxCalls);
  });
});
