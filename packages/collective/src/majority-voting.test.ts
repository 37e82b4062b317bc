import { ConfigError, type SwarmEvent } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { MajorityVoting } from './majority-voting.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { forced, reverseFinish, scripted } from './test-helpers.js';

const task = 'What is the capital of France?';
const voter = (name: string, answer: string, confidence = 0.8) =>
  scripted(name, (req) => forced(req, { answer, confidence, reasoning: `${name} knows` }));

describe('MajorityVoting', () => {
  it('counts the votes and makes the most frequent answer the winner', async () => {
    const voting = new MajorityVoting({
      agents: [voter('a', 'Paris').agent, voter('b', 'Lyon').agent, voter('c', 'paris.').agent],
    });

    const result = await voting.run(task);

    expect(result.tally).toEqual([
      { answer: 'Paris', count: 2, agents: ['a', 'c'] },
      { answer: 'Lyon', count: 1, agents: ['b'] },
    ]);
    expect(result.winner).toBe('Paris');
    expect(result.output).toBe('Paris');
    expect(result.votes).toEqual([
      { agent: 'a', answer: 'Paris', confidence: 0.8, reasoning: 'a knows' },
      { agent: 'b', answer: 'Lyon', confidence: 0.8, reasoning: 'b knows' },
      { agent: 'c', answer: 'paris.', confidence: 0.8, reasoning: 'c knows' },
    ]);
  });

  it('keys votes by voter in input order when they finish in reverse', async () => {
    const order = reverseFinish(2);
    const agents = ['first', 'second'].map(
      (name, i) =>
        scripted(name, async (req) => {
          await order.hold(i);
          return forced(req, { answer: name, confidence: 0.5, reasoning: '' });
        }).agent,
    );
    const result = await new MajorityVoting({ agents }).run(task);
    expect(order.finished).toEqual([1, 0]);
    expect(result.votes.map((v) => v.agent)).toEqual(['first', 'second']);
    // Tied at one vote each and equal confidence: the answer given first in input order wins.
    expect(result.winner).toBe('first');
  });

  it('does not count a blank answer as a vote, and records it as a failure', async () => {
    const voting = new MajorityVoting({
      agents: [voter('a', ' . ', 1).agent, voter('b', '', 1).agent, voter('c', 'Lyon', 0.2).agent],
    });
    const result = await voting.run(task);
    expect(result.winner).toBe('Lyon');
    expect(result.tally).toEqual([{ answer: 'Lyon', count: 1, agents: ['c'] }]);
    expect(result.failures).toEqual([
      { agent: 'a', error: 'the vote had no answer' },
      { agent: 'b', error: 'the vote had no answer' },
    ]);
    await expect(new MajorityVoting({ agents: [voter('a', '').agent] }).run(task)).rejects.toMatchObject({
      code: 'NO_ANSWER',
    });
  });

  it('emits voting.tally with the winner and the tally', async () => {
    const events: SwarmEvent[] = [];
    const result = await new MajorityVoting({
      agents: [voter('a', 'Paris').agent, voter('b', 'Lyon').agent, voter('c', 'Paris').agent],
    }).run(task, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'voting.tally')).toEqual([
      expect.objectContaining({ type: 'voting.tally', winner: 'Paris', tally: result.tally }),
    ]);
  });

  it('breaks a tie in count by summed confidence', async () => {
    const voting = new MajorityVoting({
      agents: [voter('a', 'Lyon', 0.3).agent, voter('b', 'Paris', 0.9).agent],
    });
    expect((await voting.run(task)).winner).toBe('Paris');
  });

  it('counts with the normalizer the user gives', async () => {
    const voting = new MajorityVoting({
      agents: [
        voter('a', 'Paris, France').agent,
        voter('b', 'Lyon').agent,
        voter('c', 'Paris (capital)').agent,
      ],
      normalize: (answer) => answer.split(/[ ,(]/)[0]!.toLowerCase(),
    });
    const result = await voting.run(task);
    expect(result.tally[0]).toEqual({ answer: 'Paris, France', count: 2, agents: ['a', 'c'] });
  });

  it('records a failing voter and counts the others', async () => {
    const broken = scripted('broken', () => 'I refuse to call functions');
    const voting = new MajorityVoting({
      agents: [voter('a', 'Paris').agent, broken.agent, voter('c', 'Paris').agent],
      maxRepairs: 0,
    });
    const result = await voting.run(task);
    expect(result.failures).toEqual([
      { agent: 'broken', error: expect.stringMatching(/no valid vote call/) },
    ]);
    expect(result.tally).toEqual([{ answer: 'Paris', count: 2, agents: ['a', 'c'] }]);
  });

  it('has the consensus agent write the final text from the votes and the tally', async () => {
    const consensus = scripted('consensus', () => 'The capital of France is Paris.');
    const voting = new MajorityVoting({
      agents: [voter('a', 'Paris').agent, voter('b', 'Lyon').agent, voter('c', 'Paris').agent],
      consensusAgent: consensus.agent,
    });
    const result = await voting.run(task);
    expect(result.output).toBe('The capital of France is Paris.');
    expect(result.winner).toBe('Paris');
    const seen = consensus.model.lastCall?.messages ?? [];
    expect(seen[1]).toMatchObject({
      role: 'user',
      name: 'a',
      content: expect.stringContaining('Answer: Paris'),
    });
    expect(seen.at(-1)?.content).toContain('"Paris": 2 (a, c)');
  });

  it('takes a Topology voter, whose output is its answer', async () => {
    const moa = new MixtureOfAgents({
      name: 'moa',
      agents: [scripted('x', () => 'Paris').agent],
      aggregator: scripted('x-agg', () => 'Paris').agent,
      layers: 1,
    });
    const result = await new MajorityVoting({ agents: [moa, voter('b', 'paris').agent] }).run(task);
    expect(result.votes[0]).toEqual({ agent: 'moa', answer: 'Paris', reasoning: '' });
    expect(result.tally[0]?.count).toBe(2);
  });

  it('counts the votes it has when the budget runs out, and skips the consensus', async () => {
    const consensus = scripted('consensus', () => 'never');
    const voting = new MajorityVoting({
      agents: [voter('a', 'Paris').agent, voter('b', 'Lyon').agent, voter('c', 'Lyon').agent],
      consensusAgent: consensus.agent,
      maxWorkers: 1,
    });
    const events: SwarmEvent[] = [];
    const result = await voting.run(task, { budget: { maxCalls: 2 }, onEvent: (e) => events.push(e) });
    // The consensus agent is not even started once the budget is spent.
    expect(events.filter((e) => 'agent' in e && e.agent === 'consensus')).toEqual([]);
    expect(result.votes.map((v) => v.agent)).toEqual(['a', 'b']);
    expect(result.failures).toEqual([{ agent: 'c', error: expect.stringMatching(/budget/) }]);
    expect(result).toMatchObject({ output: 'Paris', interrupted: true, interruptionReason: 'budget:calls' });
    expect(consensus.model.calls).toHaveLength(0);
  });

  it('stops at a token budget the same way, marked budget:tokens', async () => {
    const voting = new MajorityVoting({
      agents: [voter('a', 'Paris').agent, voter('b', 'Paris').agent],
      maxWorkers: 1,
    });
    // Each scripted call reports 15 tokens: the second vote would start past a budget of 15.
    const result = await voting.run(task, { budget: { maxTokens: 15 } });
    expect(result.votes.map((v) => v.agent)).toEqual(['a']);
    expect(result).toMatchObject({ output: 'Paris', interrupted: true, interruptionReason: 'budget:tokens' });
  });

  it('rejects bad options with a ConfigError', () => {
    const a = voter('a', 'x').agent;
    expect(() => new MajorityVoting({ agents: [] })).toThrow(ConfigError);
    expect(() => new MajorityVoting({ agents: [a], normalize: 'lower' as never })).toThrow(
      /normalize must be a function/,
    );
    expect(() => new MajorityVoting({ agents: [a], maxRepairs: -1 })).toThrow(/maxRepairs/);
  });
});
