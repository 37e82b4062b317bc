import { ConfigError, type ModelRequest, type SwarmEvent } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { DebateWithJudge, type Verdict } from './debate-with-judge.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { forced, scripted } from './test-helpers.js';

const proposition = 'Remote work is better than office work.';
const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  winner: 'pro',
  synthesis: 'Hybrid work wins.',
  confidence: 0.7,
  converged: false,
  ...over,
});

function judgeOf(verdicts: (Verdict | 'fail')[]) {
  let n = 0;
  return scripted('judge', (request: ModelRequest) => {
    const v = verdicts[n++] ?? verdict();
    return v === 'fail' ? 'no call' : forced(request, v);
  });
}

const pro = () => scripted('pro', (_r, i) => `pro argument ${i + 1}`);
const con = () => scripted('con', (_r, i) => `con argument ${i + 1}`);

describe('DebateWithJudge', () => {
  it('debates maxLoops rounds and returns the last verdict and its synthesis', async () => {
    const judge = judgeOf([
      verdict(),
      verdict(),
      verdict({ winner: 'con', synthesis: 'Offices win.', confidence: 0.9 }),
    ]);
    const result = await new DebateWithJudge({ pro: pro().agent, con: con().agent, judge: judge.agent }).run(
      proposition,
    );
    expect(result.rounds).toHaveLength(3);
    expect(result.verdict).toEqual({
      winner: 'con',
      synthesis: 'Offices win.',
      confidence: 0.9,
      converged: false,
    });
    expect(result.output).toBe('Offices win.');
    expect(result.endedBy).toBe('maxLoops');
    expect(result.rounds[0]).toEqual({
      pro: { agent: 'pro', output: 'pro argument 1' },
      con: { agent: 'con', output: 'con argument 1' },
      verdict: verdict(),
    });
  });

  it('asks the judge again when its synthesis is empty, and answers with the second one', async () => {
    const judge = judgeOf([verdict({ synthesis: '' }), verdict({ synthesis: 'Hybrid, on reflection.' })]);
    const events: SwarmEvent[] = [];
    const result = await new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judge.agent,
      maxLoops: 1,
    }).run(proposition, { onEvent: (e) => events.push(e) });
    expect(result.output).toBe('Hybrid, on reflection.');
    expect(judge.model.calls).toHaveLength(2);
    expect(events.filter((e) => e.type === 'answer.empty')).toMatchObject([{ agent: 'judge', attempt: 1 }]);
  });

  it('fails with NO_ANSWER, never an empty success, when the judge twice gives an empty synthesis', async () => {
    const judge = judgeOf([verdict({ synthesis: ' ' }), verdict({ synthesis: '' })]);
    const run = new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judge.agent,
      maxLoops: 1,
    }).run(proposition);
    await expect(run).rejects.toMatchObject({ code: 'NO_ANSWER' });
  });

  it('shows each side the debate as typed turns: its own as assistant, the others by name', async () => {
    const p = pro();
    const c = con();
    await new DebateWithJudge({ pro: p.agent, con: c.agent, judge: judgeOf([]).agent, maxLoops: 2 }).run(
      proposition,
    );
    const second = p.model.calls[1]?.messages ?? [];
    expect(second.slice(0, 4)).toEqual([
      { role: 'user', content: `Proposition: ${proposition}` },
      { role: 'assistant', content: 'pro argument 1' },
      { role: 'user', name: 'con', content: 'con argument 1' },
      { role: 'user', name: 'judge', content: 'Verdict: pro. Hybrid work wins.' },
    ]);
    expect(second.at(-1)?.content).toMatch(/pro, argue for the proposition/);
    expect(c.model.calls[0]?.messages[1]).toEqual({ role: 'user', name: 'pro', content: 'pro argument 1' });
  });

  it('stops early when the judge says the debate has converged', async () => {
    const judge = judgeOf([verdict(), verdict({ converged: true, winner: 'tie' })]);
    const p = pro();
    const result = await new DebateWithJudge({
      pro: p.agent,
      con: con().agent,
      judge: judge.agent,
      maxLoops: 5,
    }).run(proposition);
    expect(result.rounds).toHaveLength(2);
    expect(result.endedBy).toBe('converged');
    expect(result.verdict.winner).toBe('tie');
    expect(p.model.calls).toHaveLength(2);
  });

  it('records a failing side and a failed verdict, and goes on', async () => {
    const broken = scripted('con', () => {
      throw new Error('con is down');
    });
    const judge = judgeOf(['fail', verdict({ synthesis: 'Pro stands unanswered.' })]);
    const result = await new DebateWithJudge({
      pro: pro().agent,
      con: broken.agent,
      judge: judge.agent,
      maxLoops: 2,
      maxRepairs: 0,
    }).run(proposition);
    expect(result.rounds[0]?.con).toEqual({ agent: 'con', error: 'con is down' });
    expect(result.rounds[0]?.verdict).toEqual({ error: expect.stringMatching(/no valid verdict call/) });
    expect(result.output).toBe('Pro stands unanswered.');
  });

  it('answers from the last verdict when the budget runs out', async () => {
    const result = await new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judgeOf([verdict({ synthesis: 'Round one says hybrid.' })]).agent,
    }).run(proposition, { budget: { maxCalls: 4 } });
    expect(result).toMatchObject({
      output: 'Round one says hybrid.',
      endedBy: 'budget',
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
    // Round 2 got pro's argument before the budget ran out: it is kept, and says what was not reached.
    expect(result.rounds).toHaveLength(2);
    expect(result.rounds[1]).toEqual({
      pro: { agent: 'pro', output: 'pro argument 2' },
      con: { agent: 'con', error: expect.stringMatching(/^not reached: .*budget/i) },
      verdict: { error: expect.stringMatching(/^not reached: /) },
    });
  });

  it('keeps both arguments of a round whose verdict the budget stopped', async () => {
    const result = await new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judgeOf([verdict({ synthesis: 'Round one says hybrid.' })]).agent,
    }).run(proposition, { budget: { maxCalls: 5 } });
    expect(result).toMatchObject({ output: 'Round one says hybrid.', endedBy: 'budget', interrupted: true });
    expect(result.rounds[1]).toEqual({
      pro: { agent: 'pro', output: 'pro argument 2' },
      con: { agent: 'con', output: 'con argument 2' },
      verdict: { error: expect.stringMatching(/^not reached: /) },
    });
  });

  it('records no round when the budget stops it before pro speaks', async () => {
    const result = await new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judgeOf([verdict({ synthesis: 'Round one says hybrid.' })]).agent,
    }).run(proposition, { budget: { maxCalls: 3 } });
    expect(result).toMatchObject({ output: 'Round one says hybrid.', endedBy: 'budget', interrupted: true });
    expect(result.rounds).toHaveLength(1);
  });

  it('rejects with AbortError when aborted during an argument, and asks no one else', async () => {
    const gate = new Gate();
    const slowPro = scripted('pro', async () => {
      await gate.wait();
      return 'late';
    });
    const c = con();
    const judge = judgeOf([]);
    const controller = new AbortController();
    const events: SwarmEvent[] = [];
    const running = new DebateWithJudge({ pro: slowPro.agent, con: c.agent, judge: judge.agent }).run(
      proposition,
      { signal: controller.signal, onEvent: (e) => events.push(e) },
    );
    await gate.until(1);
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
    gate.open();
    expect(c.model.calls).toHaveLength(0);
    expect(judge.model.calls).toHaveLength(0);
    expect(events.filter((e) => 'agent' in e && (e.agent === 'con' || e.agent === 'judge'))).toEqual([]);
  });

  it('emits debate.verdict after each judged round, a failed verdict included', async () => {
    const events: SwarmEvent[] = [];
    await new DebateWithJudge({
      pro: pro().agent,
      con: con().agent,
      judge: judgeOf(['fail', verdict({ converged: true })]).agent,
      maxRepairs: 0,
    }).run(proposition, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'debate.verdict')).toMatchObject([
      { round: 1, verdict: { error: expect.any(String) } },
      { round: 2, verdict: verdict({ converged: true }) },
    ]);
  });

  it('takes a Topology as a side but not as the judge', async () => {
    const team = new MixtureOfAgents({
      name: 'pro-team',
      agents: [scripted('x', () => 'x argues').agent],
      aggregator: scripted('x-agg', () => 'the team argues for').agent,
      layers: 1,
    });
    const result = await new DebateWithJudge({
      pro: team,
      con: con().agent,
      judge: judgeOf([verdict({ converged: true })]).agent,
    }).run(proposition);
    expect(result.rounds[0]?.pro).toEqual({ agent: 'pro-team', output: 'the team argues for' });
    expect(() => new DebateWithJudge({ pro: pro().agent, con: con().agent, judge: team as never })).toThrow(
      /judge "pro-team" is a Topology/,
    );
  });

  it('rejects bad options with a ConfigError', () => {
    const options = { pro: pro().agent, con: con().agent, judge: judgeOf([]).agent };
    expect(() => new DebateWithJudge({ ...options, maxLoops: 0 })).toThrow(
      /maxLoops must be an integer >= 1/,
    );
    expect(() => new DebateWithJudge({ ...options, con: options.pro })).toThrow(ConfigError);
  });
});
