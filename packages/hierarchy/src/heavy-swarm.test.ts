import {
  AbortError,
  Agent,
  BudgetExceededError,
  ConfigError,
  type ModelRequest,
  type SwarmEvent,
} from '@swarm/core';
import { Gate, ScriptedModel, type ScriptedReply } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { HeavySwarm } from './heavy-swarm.js';
import { HierarchicalSwarm } from './hierarchical-swarm.js';
import { headModel, seen, steadyWorker } from './hierarchy.fixture.js';
import { forced } from './worst-case.fixture.js';

/** One model for the whole swarm: questions for every role in the schema, role answers from `answer`, a synthesis. */
function swarmModel(answer: (request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>) {
  return new ScriptedModel([], {
    fallback: {
      kind: 'respond',
      fn: (request) => {
        const purpose = request.metadata?.purpose;
        if (purpose === 'questions') {
          const schema = request.tools![0]!.parameters as {
            properties: { questions: { properties: object } };
          };
          const roles = Object.keys(schema.properties.questions.properties);
          return forced(request, {
            questions: Object.fromEntries(roles.map((r) => [r, `What does ${r} say?`])),
          });
        }
        if (purpose === 'synthesis')
          return `synthesis of ${request.messages.filter((m) => m.name).length} answers`;
        return answer(request);
      },
    },
  });
}

describe('HeavySwarm', () => {
  it('writes a question per default role in one call, has the roles answer at once, and synthesizes', async () => {
    const gate = new Gate();
    const model = swarmModel(async (request) => {
      await gate.wait();
      return `${request.metadata?.agent} answer`;
    });
    const swarm = new HeavySwarm({ model });

    const running = swarm.run('Should we rewrite the billing system?');
    await gate.until(4);
    gate.open();
    const result = await running;

    const questionCalls = model.calls.filter((c) => c.metadata?.purpose === 'questions');
    expect(questionCalls).toHaveLength(1);
    expect(result.loops[0]!.answers.map((a) => [a.role, a.question, a.output])).toEqual([
      ['research', 'What does research say?', 'research answer'],
      ['analysis', 'What does analysis say?', 'analysis answer'],
      ['alternatives', 'What does alternatives say?', 'alternatives answer'],
      ['verification', 'What does verification say?', 'verification answer'],
    ]);
    const synthesis = model.calls.find((c) => c.metadata?.purpose === 'synthesis')!;
    expect(synthesis.messages.filter((m) => m.name).map((m) => [m.name, m.content])).toEqual([
      ['research', 'research answer'],
      ['analysis', 'analysis answer'],
      ['alternatives', 'alternatives answer'],
      ['verification', 'verification answer'],
    ]);
    expect(synthesis.metadata?.agent).toBe('synthesis');
    expect(result.output).toBe('synthesis of 4 answers');
    const research = model.calls.find((c) => c.metadata?.agent === 'research')!;
    expect(research.messages).toEqual([
      { role: 'user', content: 'Should we rewrite the billing system?' },
      { role: 'user', name: 'questioner', content: 'Your question (research): What does research say?' },
    ]);
  });

  it('keeps at most maxWorkers roles answering at once', async () => {
    const gate = new Gate();
    const model = swarmModel(async (request) => {
      await gate.wait();
      return `${request.metadata?.agent} answer`;
    });
    const running = new HeavySwarm({ model, maxWorkers: 2 }).run('task');
    await gate.until(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.waiting).toBe(2); // the other two roles have not started
    gate.open();
    const result = await running;
    expect(result.loops[0]!.answers.map((a) => a.status)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('takes custom roles as data: their names key the questions and their instructions guide the answers', async () => {
    const model = swarmModel((request) => `${request.metadata?.agent}: ${request.system}`);
    const result = await new HeavySwarm({
      model,
      roles: [
        { name: 'optimist', description: 'The best case.', instructions: 'Look on the bright side.' },
        { name: 'pessimist', description: 'The worst case.', instructions: 'Expect the worst.' },
      ],
    }).run('Launch on Friday?');

    expect(result.loops[0]!.questions).toEqual({
      optimist: 'What does optimist say?',
      pessimist: 'What does pessimist say?',
    });
    expect(result.loops[0]!.answers.map((a) => a.output)).toEqual([
      'optimist: Look on the bright side.',
      'pessimist: Expect the worst.',
    ]);
  });

  it("uses the original's grok variant: three thinking styles and a captain who synthesizes", async () => {
    const model = swarmModel((request) => `${request.metadata?.agent} answer`);
    const result = await new HeavySwarm({ model, roles: 'grok' }).run('Is P = NP?');
    expect(result.loops[0]!.answers.map((a) => a.role)).toEqual(['harper', 'benjamin', 'lucas']);
    expect(model.calls.find((c) => c.metadata?.purpose === 'synthesis')!.metadata?.agent).toBe('captain');
  });

  it("puts the user's own agents to work as the roles, with a separate questioner and synthesizer", async () => {
    const legal = steadyWorker('legal', 'legal view');
    const finance = steadyWorker('finance', 'finance view');
    const head = headModel({
      questions: [{ questions: { legal: 'Is it allowed?', finance: 'Can we afford it?' } }],
      synthesis: ['allowed and affordable'],
    });
    const result = await new HeavySwarm({
      agents: [legal.agent, finance.agent],
      questioner: head,
      synthesizer: new Agent({ name: 'cfo', model: head }),
    }).run('Buy the competitor?');

    expect(legal.model.lastCall!.messages.at(-1)!.content).toBe('Your question (legal): Is it allowed?');
    expect(head.calls[0]!.messages[0]!.content).toContain('- legal: legal work\n- finance: finance work');
    expect(head.calls[1]!.metadata?.agent).toBe('cfo');
    expect(result.output).toBe('allowed and affordable');
  });

  it('takes a whole topology as a role, run nested in the same run', async () => {
    const writer = steadyWorker('writer', 'drafted');
    const director = headModel({
      director: [{ plan: 'p', orders: [{ id: 'o1', agentName: 'writer', task: 'Draft.' }], done: true }],
      final: ['team view'],
    });
    const team = new HierarchicalSwarm({ name: 'team', director, agents: [writer.agent] });
    const solo = steadyWorker('solo', 'solo view');
    const head = headModel({
      questions: [{ questions: { team: 'Team question?', solo: 'Solo question?' } }],
      synthesis: ['both views'],
    });
    const result = await new HeavySwarm({
      agents: [team, solo.agent],
      questioner: head,
      synthesizer: head,
    }).run('task');

    expect(result.loops[0]!.answers.map((a) => [a.role, a.output])).toEqual([
      ['team', 'team view'],
      ['solo', 'solo view'],
    ]);
    expect(director.calls[0]!.messages[0]!.content).toContain('Your question (team): Team question?');
  });

  it('cancels a role that runs past the timeout, keeps the others, and synthesizes from what came back', async () => {
    let slowSignal: AbortSignal | undefined;
    const model = swarmModel((request) => {
      if (request.metadata?.agent === 'analysis') {
        slowSignal = request.signal;
        return new Promise<string>(() => {});
      }
      return `${request.metadata?.agent} answer`;
    });
    const result = await new HeavySwarm({ model, timeoutMs: 20 }).run('task');

    expect(slowSignal?.aborted).toBe(true);
    expect(result.loops[0]!.answers.map((a) => a.status)).toEqual(['done', 'failed', 'done', 'done']);
    expect(result.loops[0]!.answers[1]!.error).toBe(
      'role analysis took longer than 20 ms and was cancelled.',
    );
    expect(seen(model.calls.find((c) => c.metadata?.purpose === 'synthesis'))).toContain(
      'user(analysis): FAILED to answer: role analysis took longer than 20 ms',
    );
    expect(result.output).toBe('synthesis of 4 answers');
  });

  it("runs each role in the run itself under its time limit: its events carry the run's id", async () => {
    const model = swarmModel((request) => `${request.metadata?.agent} answer`);
    const events: SwarmEvent[] = [];
    await new HeavySwarm({ model }).run('task', { onEvent: (e) => events.push(e) });
    const runId = events.find((e) => e.type === 'run.start')!.runId;
    const roleEvents = events.filter((e) => e.agent === 'research');
    expect(roleEvents.length).toBeGreaterThan(0);
    expect(roleEvents.every((e) => e.runId === runId && e.parentRunId === undefined)).toBe(true);
  });

  it('on a second loop asks questions that improve on the last synthesis', async () => {
    const model = swarmModel((request) => `${request.metadata?.agent} answer`);
    const result = await new HeavySwarm({ model, roles: 'grok', maxLoops: 2 }).run('task');
    const second = model.calls.filter((c) => c.metadata?.purpose === 'questions')[1]!;
    expect(second.messages.slice(1)).toEqual([
      { role: 'user', name: 'captain', content: 'synthesis of 3 answers' },
      {
        role: 'user',
        content: 'That was the answer of round 1. Ask questions that find what it misses or gets wrong.',
      },
    ]);
    expect(result.loops).toHaveLength(2);
  });

  it('on a budget stop answers from the roles that finished and marks the result interrupted', async () => {
    const model = swarmModel((request) => `${request.metadata?.agent} answer`);
    const result = await new HeavySwarm({ model, roles: 'grok', maxWorkers: 1 }).run('task', {
      budget: { maxCalls: 3 },
    });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.output).toBe('[harper]\nharper answer\n\n[benjamin]\nbenjamin answer');
    expect(result.loops[0]!.answers[2]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^not run: /),
    });
  });

  it('rethrows an abort among the answers even when a budget refusal settled before it', async () => {
    const model = swarmModel((request) => {
      const role = request.metadata?.agent;
      if (role === 'research') throw new BudgetExceededError('budget:calls', 'No calls left.');
      if (role === 'analysis') throw new AbortError('Stopped by the caller.');
      return `${role} answer`;
    });
    // Two roles answered: a budget stop alone would answer from them, marked interrupted.
    await expect(new HeavySwarm({ model }).run('task')).rejects.toBeInstanceOf(AbortError);
  });

  it('on a budget stop in a later loop answers with the last synthesis, not the half-done round', async () => {
    const model = swarmModel((request) => `${request.metadata?.agent} answer`);
    // Loop 1: questions, three answers, synthesis (5 calls); loop 2: questions and harper (7).
    const result = await new HeavySwarm({ model, roles: 'grok', maxWorkers: 1, maxLoops: 2 }).run('task', {
      budget: { maxCalls: 7 },
    });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.loops[1]!.answers[0]).toMatchObject({ status: 'done', output: 'harper answer' });
    expect(result.output).toBe('synthesis of 3 answers');
  });

  it('rejects bad options at construction', () => {
    const model = new ScriptedModel();
    expect(() => new HeavySwarm({})).toThrow(ConfigError);
    expect(() => new HeavySwarm({ model, roles: 'grokk' as 'grok' })).toThrow(
      /roles must be an array of roles or one of default, grok, grokHeavy/,
    );
    expect(() => new HeavySwarm({ model, agents: [steadyWorker('a').agent], roles: 'grok' })).toThrow(
      /not both/,
    );
    expect(() => new HeavySwarm({ agents: [steadyWorker('a').agent] })).toThrow(/give questioner/);
    expect(() => new HeavySwarm({ model, timeoutMs: -5 })).toThrow(/timeoutMs must be a positive number/);
    const twice = { name: 'x', description: 'd', instructions: 'i' };
    expect(() => new HeavySwarm({ model, roles: [twice, twice] })).toThrow(/two roles are named "x"/);
  });
});
