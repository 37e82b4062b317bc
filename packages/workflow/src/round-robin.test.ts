import { BudgetExceededError, ConfigError } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { RoundRobin } from './round-robin.js';
import { SequentialWorkflow } from './sequential-workflow.js';
import { callsOf, team } from './test-support.js';

describe('RoundRobin', () => {
  it('lets members take turns for the rounds, each seeing the thread as typed turns', async () => {
    const { model, agents } = team(['alice', 'bob'], {
      alice: (req) => `alice ${req.messages.length}`,
      bob: (req) => `bob ${req.messages.length}`,
    });
    const result = await new RoundRobin({ agents, rounds: 2 }).run('Plan a trip.');

    expect(result.turns).toEqual([
      { round: 1, agent: 'alice', output: 'alice 1' },
      { round: 1, agent: 'bob', output: 'bob 2' },
      { round: 2, agent: 'alice', output: 'alice 3' },
      { round: 2, agent: 'bob', output: 'bob 4' },
    ]);
    expect(result.output).toBe('bob 4');
    expect(callsOf(model, 'alice')[1]!.messages).toEqual([
      { role: 'user', content: 'Plan a trip.' },
      { role: 'assistant', content: 'alice 1' },
      { role: 'user', name: 'bob', content: 'bob 2' },
    ]);
    expect(model.calls).toHaveLength(4);
  });

  it('answers with the last turn taken when the budget ends the discussion', async () => {
    const { agents } = team(['alice', 'bob', 'carol']);
    const result = await new RoundRobin({ agents, rounds: 3 }).run('go', { budget: { maxCalls: 4 } });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.turns.map((t) => `${t.round}:${t.agent}`)).toEqual([
      '1:alice',
      '1:bob',
      '1:carol',
      '2:alice',
    ]);
    expect(result.output).toBe(result.turns[3]!.output);
  });

  it('rejects with the budget error when nobody could speak', async () => {
    const { agents } = team(['alice', 'bob']);
    await expect(new RoundRobin({ agents }).run('go', { budget: { maxCalls: 0 } })).rejects.toBeInstanceOf(
      BudgetExceededError,
    );
  });

  it('gives a topology member the thread as text', async () => {
    const { model, byName } = team(['alice', 'bob', 'carol'], { alice: 'hi', bob: 'hello', carol: 'hey' });
    const pair = new SequentialWorkflow({ name: 'pair', agents: [byName.bob!, byName.carol!] });
    const result = await new RoundRobin({ agents: [byName.alice!, pair] }).run('Greet.');

    expect(callsOf(model, 'bob')[0]!.messages).toEqual([
      { role: 'user', content: '[user]\nGreet.\n\n[alice]\nhi' },
    ]);
    expect(result.turns.map((t) => t.agent)).toEqual(['alice', 'pair']);
    expect(result.output).toBe('hey');
  });

  it('keeps two concurrent runs of one instance apart', async () => {
    const gate = new Gate();
    const { agents } = team(['alice', 'bob'], {
      alice: async (req) => {
        if (req.messages[0]!.content === 'first') await gate.wait();
        return `alice on ${req.messages[0]!.content}`;
      },
    });
    const robin = new RoundRobin({ agents });
    const first = robin.run('first');
    await gate.until(1);
    const second = await robin.run('second');
    gate.open();

    expect(second.output).toBe('bob says: alice on second');
    expect((await first).output).toBe('bob says: alice on first');
  });

  it('rejects bad options at construction', () => {
    const { agents } = team(['alice', 'bob']);
    expect(() => new RoundRobin({ agents, rounds: 0 })).toThrow(/rounds must be an integer >= 1/);
    expect(() => new RoundRobin({ agents: [agents[0]!] })).toThrow(ConfigError);
  });

  it('ends the discussion after a nested topology that answered from part of its work because of the budget', async () => {
    const { model, byName } = team(['alice', 'bob', 'carol']);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.bob!, byName.carol!] });
    const result = await new RoundRobin({ agents: [byName.alice!, panel], rounds: 2 }).run('go', {
      budget: { maxCalls: 2 },
    });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.turns.map((t) => `${t.round}:${t.agent}`)).toEqual(['1:alice', '1:panel']);
    expect(result.output).toBe(result.turns[1]!.output);
    expect(callsOf(model, 'alice')).toHaveLength(1);
  });
  it("shows a topology member its own earlier turns under its name, not as an 'assistant'", async () => {
    const { model, byName } = team(['alice', 'bob', 'carol'], { alice: 'hi', carol: 'hey' });
    const pair = new SequentialWorkflow({ name: 'pair', agents: [byName.bob!, byName.carol!] });
    await new RoundRobin({ agents: [byName.alice!, pair], rounds: 2 }).run('Greet.');

    expect(callsOf(model, 'bob')[1]!.messages).toEqual([
      { role: 'user', content: '[user]\nGreet.\n\n[alice]\nhi\n\n[pair]\nhey\n\n[alice]\nhi' },
    ]);
  });
});
