import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gate, reply, respond } from '@swarm/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { handTo, supportDesk } from './support-desk.fixture.js';
import { Team } from './team.js';

const first = 'I was charged twice for invoice 42';
const followUp = 'When will the refund arrive?';

// What the first message leaves in the session: triage handed off, billing answered.
const firstThread = [
  { role: 'user', content: first },
  { role: 'user', name: 'triage', content: '[Handoff: triage → billing] duplicate charge' },
  { role: 'assistant', content: 'Refund issued.' },
];

describe('Team.swarm: sessions', () => {
  it('sends the next message of a session to the agent that answered last, with the history', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'duplicate charge')],
      billing: [reply('Refund issued.'), reply('Within 5 days.')],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    await team.run(first, { sessionId: 'conv-7' });
    const result = await team.run(followUp, { sessionId: 'conv-7' });

    expect(desk.models.triage.calls).toHaveLength(1);
    expect(desk.models.billing.calls[1]?.messages).toEqual([
      ...firstThread,
      { role: 'user', content: followUp },
    ]);
    expect(result).toMatchObject({ output: 'Within 5 days.', lastAgent: 'billing', handoffs: [] });
    expect(result.messages).toEqual([
      { type: 'request', content: followUp },
      { type: 'text', agent: 'billing', content: 'Within 5 days.' },
    ]);
  });

  it('keeps sessions apart, and a run without sessionId remembers nothing', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'duplicate charge'), reply('Hello, how can I help?'), reply('Hi again.')],
      billing: [reply('Refund issued.')],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    await team.run(first, { sessionId: 'a' });
    await team.run('hello', { sessionId: 'b' });
    await team.run('hello again');

    expect(desk.models.triage.calls[1]?.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(desk.models.triage.calls[2]?.messages).toEqual([{ role: 'user', content: 'hello again' }]);
  });

  it('starts every message at the entry agent when resumeLastAgent is false, history included', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'duplicate charge'), reply('Billing said within 5 days.')],
      billing: [reply('Refund issued.')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing },
      entryAgent: 'triage',
      resumeLastAgent: false,
    });

    await team.run(first, { sessionId: 'conv-7' });
    const result = await team.run(followUp, { sessionId: 'conv-7' });

    expect(desk.models.billing.calls).toHaveLength(1);
    expect(desk.models.triage.calls[1]?.messages).toEqual([
      { role: 'user', content: first },
      { role: 'assistant', content: '[Handoff: triage → billing] duplicate charge' },
      { role: 'user', name: 'billing', content: 'Refund issued.' },
      { role: 'user', content: followUp },
    ]);
    expect(result.lastAgent).toBe('triage');
  });

  it('runs the messages of one session one at a time', async () => {
    const gate = new Gate();
    const desk = supportDesk({
      triage: [
        respond(async () => {
          await gate.wait();
          return 'First answer.';
        }),
        reply('Second answer.'),
      ],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    const one = team.run('one', { sessionId: 's' });
    const two = team.run('two', { sessionId: 's' });
    await gate.until(1);
    expect(desk.models.triage.calls).toHaveLength(1);
    gate.open();
    await Promise.all([one, two]);

    expect(desk.models.triage.calls[1]?.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'two' },
    ]);
  });

  describe('with a FileSessionStore', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'swarm-handoff-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('continues the conversation at billing after a new Team instance (a restart)', async () => {
      const before = supportDesk({
        triage: [handTo('billing', 'duplicate charge')],
        billing: [reply('Refund issued.')],
      });
      await Team.swarm({
        agents: { triage: before.triage, billing: before.billing },
        entryAgent: 'triage',
        sessions: new FileSessionStore(dir),
      }).run(first, { sessionId: 'conv-7' });

      const after = supportDesk({ billing: [reply('Within 5 days.')] });
      const restarted = Team.swarm({
        agents: { triage: after.triage, billing: after.billing },
        entryAgent: 'triage',
        sessions: new FileSessionStore(dir),
      });
      const result = await restarted.run(followUp, { sessionId: 'conv-7' });

      expect(after.models.triage.calls).toHaveLength(0);
      expect(after.models.billing.calls[0]?.messages).toEqual([
        ...firstThread,
        { role: 'user', content: followUp },
      ]);
      expect(result.output).toBe('Within 5 days.');
      const saved = JSON.parse(await readFile(join(dir, 'conv-7.json'), 'utf8'));
      expect(saved.lastAgent).toBe('billing');
      expect(saved.history).toHaveLength(5);
    });
  });
});
