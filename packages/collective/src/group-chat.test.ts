import { ConfigError, type ModelRequest, type SwarmEvent } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { GroupChat } from './group-chat.js';
import { groupChatDescriptor } from './group-chat-descriptor.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { forced, reverseFinish, scripted, shown } from './test-helpers.js';

const task = 'Plan a team offsite.';
type Script = ([number, string] | 'fail')[];

// A bidder whose n-th bid is script[n] (0 with no message once spent); a free-text call (the
// winner writing its message in intent bidding) gets "<name> writes".
function bidder(name: string, script: Script, options: { hold?: () => Promise<void> } = {}) {
  let n = 0;
  return scripted(name, async (request: ModelRequest) => {
    if (typeof request.toolChoice !== 'object') return `${name} writes`;
    // Only the first round's bid is held (later rounds run free).
    if (options.hold && n === 0) await options.hold();
    const step = script[n++] ?? [0, ''];
    if (step === 'fail') return 'no function call';
    const [score, text] = step;
    const field = request.tools?.[0]?.parameters.properties as Record<string, unknown>;
    return forced(request, 'intent' in field ? { score, intent: text } : { score, message: text });
  });
}

describe('GroupChat', () => {
  it('collects every bid of a round at once, keyed by agent in input order', async () => {
    const order = reverseFinish(2);
    const ada = bidder('ada', [[0.9, 'ada: a lake']], { hold: () => order.hold(0) });
    const bob = bidder('bob', [[0.2, 'bob: hmm']], { hold: () => order.hold(1) });
    const result = await new GroupChat({ agents: [ada.agent, bob.agent] }).run(task);
    expect(order.finished).toEqual([1, 0]);
    expect(result.rounds[0]?.bids.map((b) => b.agent)).toEqual(['ada', 'bob']);
    expect(result.rounds[0]?.speaker).toBe('ada');
  });

  it('posts only the highest bid above the threshold, and the others never see the losing drafts', async () => {
    const ada = bidder('ada', [
      [0.6, 'ada: a lake'],
      [0, ''],
    ]);
    const bob = bidder('bob', [
      [0.8, 'bob: the mountains'],
      [0, ''],
    ]);
    const result = await new GroupChat({ agents: [ada.agent, bob.agent] }).run(task);

    expect(result.messages).toEqual([{ agent: 'bob', content: 'bob: the mountains' }]);
    expect(result.output).toBe('bob: the mountains');
    const secondBid = ada.model.calls[1]?.messages ?? [];
    expect(secondBid[1]).toEqual({ role: 'user', name: 'bob', content: 'bob: the mountains' });
    expect(JSON.stringify(secondBid)).not.toContain('a lake');
    // Round 2: nobody bids above the threshold, so the chat ends in silence.
    expect(result.rounds).toHaveLength(2);
    expect(result.rounds[1]?.speaker).toBeUndefined();
    expect(result.endedBy).toBe('threshold');
    // Someone spoke: a quiet second round ends the chat normally.
    expect(result.interrupted).toBe(false);
    expect(result.interruptionReason).toBeUndefined();
  });

  it('ends a chat where nobody ever bids above the threshold as interrupted with no-speaker, not as an answer', async () => {
    const result = await new GroupChat({
      agents: [bidder('ada', [[0.5, 'exactly at it']]).agent, bidder('bob', [[0.3, 'below']]).agent],
      threshold: 0.5,
    }).run(task);
    expect(result.messages).toEqual([]);
    expect(result.rounds).toEqual([
      {
        bids: [
          { agent: 'ada', score: 0.5, adjusted: 0.5 },
          { agent: 'bob', score: 0.3, adjusted: 0.3 },
        ],
      },
    ]);
    expect(result).toMatchObject({
      endedBy: 'threshold',
      output: '',
      interrupted: true,
      interruptionReason: 'no-speaker',
    });
  });

  it('lowers the bids of the last recencyWindow speakers by the recency penalty', async () => {
    const ada = bidder('ada', [
      [0.9, 'ada 1'],
      [0.85, 'ada 2'],
      [0, ''],
    ]);
    const bob = bidder('bob', [
      [0.1, ''],
      [0.7, 'bob 1'],
      [0, ''],
    ]);
    const result = await new GroupChat({
      agents: [ada.agent, bob.agent],
      recencyPenalty: 0.3,
      recencyWindow: 1,
    }).run(task);
    expect(result.rounds[1]?.bids[0]).toMatchObject({
      agent: 'ada',
      score: 0.85,
      adjusted: expect.closeTo(0.55),
    });
    expect(result.messages.map((m) => m.agent)).toEqual(['ada', 'bob']);
  });

  it('breaks a tie for the floor by fewer messages posted, then input order', async () => {
    const ada = bidder('ada', [
      [0.9, 'ada 1'],
      [0.9, 'ada 2'],
      [0, ''],
    ]);
    const bob = bidder('bob', [
      [0.9, 'bob 1'],
      [0.9, 'bob 2'],
      [0, ''],
    ]);
    const result = await new GroupChat({ agents: [ada.agent, bob.agent], recencyPenalty: 0 }).run(task);
    // Round 1: tied, nobody has spoken: ada comes first. Round 2: tied, bob has spoken less.
    expect(result.messages.map((m) => m.content)).toEqual(['ada 1', 'bob 2']);
  });

  it('treats a failed or blank bid as silence and clamps scores into 0..1', async () => {
    const ada = bidder('ada', ['fail']);
    const bob = bidder('bob', [[0.9, '   ']]);
    const cy = bidder('cyrus', [
      [7, 'cyrus: the sea'],
      [-3, 'never'],
    ]);
    const result = await new GroupChat({ agents: [ada.agent, bob.agent, cy.agent], maxRepairs: 0 }).run(task);
    expect(result.rounds[0]?.bids).toEqual([
      { agent: 'ada', score: 0, adjusted: 0, error: expect.stringMatching(/no valid respond call/) },
      { agent: 'bob', score: 0, adjusted: 0, error: 'the bid had no message' },
      { agent: 'cyrus', score: 1, adjusted: 1 },
    ]);
    expect(result.rounds[1]?.bids[2]).toMatchObject({ score: 0, adjusted: 0 });
    expect(result.messages).toEqual([{ agent: 'cyrus', content: 'cyrus: the sea' }]);
  });

  it('fails with NO_ANSWER when every bid of the first round failed, rather than answer with nothing', async () => {
    const ada = bidder('ada', ['fail']);
    const bob = bidder('bob', ['fail']);
    const run = new GroupChat({ agents: [ada.agent, bob.agent], maxRepairs: 0 }).run(task);
    await expect(run).rejects.toMatchObject({
      code: 'NO_ANSWER',
      message: expect.stringMatching(/every agent's bid failed.*ada: .*bob: /),
    });
  });

  it('traces every round of bids and every posted message', async () => {
    const events: SwarmEvent[] = [];
    const ada = bidder('ada', [
      [0.9, 'ada 1'],
      [0, ''],
    ]);
    const bob = bidder('bob', [
      [0.3, 'bob 1'],
      [0, ''],
    ]);
    const result = await new GroupChat({ agents: [ada.agent, bob.agent] }).run(task, {
      onEvent: (e) => events.push(e),
    });
    const bids = events.filter((e) => e.type === 'groupchat.bid');
    expect(bids.map((e) => e.bids)).toEqual(result.rounds.map((r) => r.bids));
    expect(events.filter((e) => e.type === 'groupchat.message')).toMatchObject([
      { agent: 'ada', content: 'ada 1' },
    ]);
  });

  it('stops at maxMessages', async () => {
    const eager = (name: string) =>
      bidder(
        name,
        Array.from({ length: 10 }, (_, i): [number, string] => [1, `${name} ${i}`]),
      );
    const result = await new GroupChat({
      agents: [eager('ada').agent, eager('bob').agent],
      maxMessages: 3,
    }).run(task);
    expect(result.messages).toHaveLength(3);
    expect(result.rounds).toHaveLength(3);
    expect(result.endedBy).toBe('maxMessages');
  });

  it('in intent bidding asks only the winner for its full message', async () => {
    const ada = bidder('ada', [
      [0.9, 'propose a lake'],
      [0, ''],
    ]);
    const bob = bidder('bob', [
      [0.7, 'propose hills'],
      [0, ''],
    ]);
    const result = await new GroupChat({ agents: [ada.agent, bob.agent], bidding: 'intent' }).run(task);
    expect(result.rounds[0]?.bids[0]).toMatchObject({ agent: 'ada', intent: 'propose a lake' });
    expect(result.messages).toEqual([{ agent: 'ada', content: 'ada writes' }]);
    expect(ada.model.calls.filter((c) => typeof c.toolChoice !== 'object')).toHaveLength(1);
    expect(bob.model.calls.every((c) => typeof c.toolChoice === 'object')).toBe(true);
    expect(shown(ada.model.calls[1])).toContain('You meant to say: propose a lake');
  });

  it('in intent bidding gives the floor to the next bid when the winner writes nothing, with a warning', async () => {
    // ada wins round 1 with an intent, then writes a blank message; it bids 0 after that.
    let bids = 0;
    const mute = scripted('ada', (request) => {
      if (typeof request.toolChoice !== 'object') return '  ';
      bids += 1;
      return forced(request, bids === 1 ? { score: 0.9, intent: 'a lake' } : { score: 0, intent: '-' });
    });
    const bob = bidder('bob', [
      [0.7, 'hills'],
      [0, ''],
    ]);
    const events: SwarmEvent[] = [];
    const result = await new GroupChat({ agents: [mute.agent, bob.agent], bidding: 'intent' }).run(task, {
      onEvent: (e) => events.push(e),
    });
    expect(result.messages).toEqual([{ agent: 'bob', content: 'bob writes' }]);
    expect(result.rounds[0]?.bids[0]?.error).toBe('the message written after winning was empty');
    expect(events.filter((e) => e.type === 'warning')).toMatchObject([
      { agent: 'ada', message: 'the message written after winning was empty' },
    ]);
  });

  it('leans the bid prompt as promptBias says, naming the threshold', async () => {
    const ada = bidder('ada', []);
    await new GroupChat({ agents: [ada.agent, bidder('bob', []).agent], threshold: 0.4 }).run(task);
    expect(ada.model.calls[0]?.system).toMatch(
      /above 0\.4.*do not let it end while the task is not fully resolved/s,
    );
    const shy = bidder('ada', []);
    await new GroupChat({ agents: [shy.agent, bidder('bob', []).agent], promptBias: 'reserved' }).run(task);
    expect(shy.model.calls[0]?.system).toContain('otherwise bid 0');
  });

  it('ends with the messages so far when the budget runs out', async () => {
    const eager = (name: string) =>
      bidder(name, [
        [0.9, `${name} 1`],
        [0.9, `${name} 2`],
      ]);
    const result = await new GroupChat({
      agents: [eager('ada').agent, eager('bob').agent],
      maxWorkers: 1,
    }).run(task, {
      budget: { maxCalls: 3 },
    });
    expect(result).toMatchObject({
      endedBy: 'budget',
      interrupted: true,
      interruptionReason: 'budget:calls',
      output: 'ada 1',
    });
    expect(result.rounds[1]?.bids[1]?.error).toMatch(/budget/);
  });

  it('refuses a Topology bidder and bad numbers with a ConfigError', () => {
    const ada = bidder('ada', []).agent;
    const pair = [ada, bidder('bob', []).agent];
    const moa = new MixtureOfAgents({ name: 'moa', agents: [ada], aggregator: ada });
    expect(() => new GroupChat({ agents: [ada, moa] })).toThrow(/agents\[1\] "moa" is a Topology/);
    expect(() => new GroupChat({ agents: pair, threshold: 1.5 })).toThrow(
      /threshold must be a number between 0 and 1/,
    );
    expect(() => new GroupChat({ agents: pair, threshold: 1 })).toThrow(/threshold must be below 1/);
    expect(() => new GroupChat({ agents: pair, maxMessages: 0 })).toThrow(ConfigError);
    expect(() => new GroupChat({ agents: pair, bidding: 'loud' as never })).toThrow(/'full', 'intent'/);
  });

  it('refuses a chat of one: bidding needs at least two agents, as its descriptor says', () => {
    expect(() => new GroupChat({ agents: [bidder('ada', []).agent] })).toThrow(/at least 2/);
    expect(groupChatDescriptor.minAgents).toBe(2);
  });
});
