import { AbortError, Agent, BudgetExceededError, ConfigError, RefusalError } from '@swarm/core';
import { Gate, reply, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { aggregatorPrompt, ConcurrentWorkflow } from './concurrent-workflow.js';
import { callsOf, team } from './test-support.js';

describe('ConcurrentWorkflow', () => {
  it('keeps results in input order when the members finish out of order', async () => {
    const gate = new Gate();
    const { agents } = team(['slow', 'fast'], {
      slow: () => gate.wait().then(() => 'slow answer'),
      fast: 'fast answer',
    });
    const events: string[] = [];
    const running = new ConcurrentWorkflow({ agents }).run('go', {
      onEvent: (e) => e.type === 'agent.end' && events.push(String(e.agent)),
    });
    await gate.until(1);
    // Both started at once: fast has answered while slow is still waiting.
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['fast']);
    gate.open();
    const result = await running;

    expect(events).toEqual(['fast', 'slow']);
    expect(result.results).toEqual([
      { agent: 'slow', status: 'done', output: 'slow answer' },
      { agent: 'fast', status: 'done', output: 'fast answer' },
    ]);
    expect(result.output).toBe('[slow]\nslow answer\n\n[fast]\nfast answer');
  });

  it("stores a member's failure beside its siblings' answers (onError 'store', the default)", async () => {
    const { agents } = team(['a', 'b', 'c'], {
      b: () => {
        throw new Error('b is down');
      },
    });
    const result = await new ConcurrentWorkflow({ agents }).run('go');

    expect(result.results.map((r) => r.status)).toEqual(['done', 'failed', 'done']);
    expect(result.results[1]).toMatchObject({
      agent: 'b',
      status: 'failed',
      error: 'b is down',
      code: 'MODEL',
    });
    expect(result.output).toBe('[a]\na says: go\n\n[c]\nc says: go');
    expect(result.interrupted).toBeUndefined();
  });

  it("records a member's refusal as its failure with its reason, not as an empty answer", async () => {
    const { agents } = team(['a', 'b'], {
      b: () => {
        throw new RefusalError('openai: the model refused to answer (category cyber: not with that).', {
          provider: 'openai',
          category: 'cyber',
          explanation: 'not with that',
        });
      },
    });
    const result = await new ConcurrentWorkflow({ agents }).run('go');

    expect(result.results[1]).toMatchObject({ agent: 'b', status: 'failed', code: 'REFUSED' });
    expect(result.results[1]!.status === 'failed' && result.results[1]!.error).toMatch(/refused.*cyber/);
    expect(result.output).toBe('a says: go');
  });

  it("rejects with the first failure in input order once all have settled (onError 'raise')", async () => {
    const gate = new Gate();
    const { model, agents } = team(['a', 'b', 'c'], {
      a: () => gate.wait().then(() => 'a answer'),
      b: () => {
        throw new Error('b is down');
      },
      c: () => {
        throw new Error('c is down');
      },
    });
    const running = new ConcurrentWorkflow({ agents, onError: 'raise' }).run('go');
    let settled = false;
    running.catch(() => undefined).finally(() => (settled = true));
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    gate.open();
    await expect(running).rejects.toThrow('b is down');
    expect(model.calls).toHaveLength(3);
  });

  it('fails when every member failed: there is nothing to answer from', async () => {
    const { agents } = team(['a', 'b'], {
      a: () => {
        throw new Error('a is down');
      },
      b: () => {
        throw new Error('b is down');
      },
    });
    await expect(new ConcurrentWorkflow({ agents }).run('go')).rejects.toThrow('a is down');
  });

  it("lets the aggregator answer from the members' answers, given as their turns", async () => {
    const { agents } = team(['optimist', 'pessimist'], {
      optimist: 'it will rain less',
      pessimist: 'floods',
    });
    const judgeModel = new ScriptedModel([reply('Expect some rain.')]);
    const judge = new Agent({ name: 'judge', model: judgeModel });
    const result = await new ConcurrentWorkflow({ agents, aggregator: judge }).run('Weather tomorrow?');

    expect(result.output).toBe('Expect some rain.');
    expect(judgeModel.lastCall?.messages).toEqual([
      { role: 'user', content: 'Weather tomorrow?' },
      { role: 'user', name: 'optimist', content: 'it will rain less' },
      { role: 'user', name: 'pessimist', content: 'floods' },
      { role: 'user', content: aggregatorPrompt },
    ]);
    expect(result.llmCalls).toBe(3);
  });

  it('gives the aggregator only the answers of members that did not fail', async () => {
    const { agents } = team(['a', 'b'], {
      a: () => {
        throw new Error('a is down');
      },
    });
    const judgeModel = new ScriptedModel([reply('b is right')]);
    const result = await new ConcurrentWorkflow({
      agents,
      aggregator: new Agent({ name: 'judge', model: judgeModel }),
    }).run('go');

    expect(result.output).toBe('b is right');
    expect(judgeModel.lastCall?.messages.map((m) => m.name)).toEqual([undefined, 'b', undefined]);
  });

  it('marks members the budget refused as skipped, not failed, and answers from the rest', async () => {
    const { agents } = team(['a', 'b', 'c']);
    const judgeModel = new ScriptedModel();
    const started: string[] = [];
    const result = await new ConcurrentWorkflow({
      agents,
      aggregator: new Agent({ name: 'judge', model: judgeModel }),
    }).run('go', {
      budget: { maxCalls: 2 },
      onEvent: (e) => e.type === 'agent.start' && started.push(String(e.agent)),
    });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    // The budget stopped the members: the aggregator is not even started.
    expect(started).toEqual(['a', 'b', 'c']);
    expect(result.results).toEqual([
      { agent: 'a', status: 'done', output: 'a says: go' },
      { agent: 'b', status: 'done', output: 'b says: go' },
      { agent: 'c', status: 'skipped', reason: 'budget:calls' },
    ]);
    expect(result.output).toBe('[a]\na says: go\n\n[b]\nb says: go');
    expect(judgeModel.calls).toHaveLength(0);
  });

  it('answers from the members when the budget refuses the aggregator', async () => {
    const { agents } = team(['a', 'b']);
    const judgeModel = new ScriptedModel();
    const result = await new ConcurrentWorkflow({
      agents,
      aggregator: new Agent({ name: 'judge', model: judgeModel }),
    }).run('go', { budget: { maxCalls: 2 } });

    expect(result).toMatchObject({ interrupted: true, output: '[a]\na says: go\n\n[b]\nb says: go' });
    expect(result.results.every((r) => r.status === 'done')).toBe(true);
  });

  it('rejects with the budget error when no member could answer', async () => {
    const { agents } = team(['a', 'b']);
    await expect(
      new ConcurrentWorkflow({ agents }).run('go', { budget: { maxCalls: 0 } }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('rethrows an abort instead of storing it as a failure', async () => {
    const gate = new Gate();
    const { agents } = team(['a', 'b'], { a: () => gate.wait().then(() => 'late'), b: 'quick' });
    const controller = new AbortController();
    const running = new ConcurrentWorkflow({ agents }).run('go', { signal: controller.signal });
    await gate.until(1);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });

  it('runs at most maxWorkers members at once', async () => {
    const gate = new Gate();
    const { model, agents } = team(['a', 'b', 'c'], {
      a: () => gate.wait().then(() => 'a'),
      b: () => gate.wait().then(() => 'b'),
      c: 'c',
    });
    const running = new ConcurrentWorkflow({ agents, maxWorkers: 2 }).run('go');
    await gate.until(2);
    await new Promise((r) => setImmediate(r));
    expect(callsOf(model, 'c')).toHaveLength(0);
    gate.open();
    expect((await running).results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
  });

  it('keeps two concurrent runs of one instance apart', async () => {
    const gate = new Gate();
    const { agents } = team(['a', 'b'], {
      a: async (req) => {
        if (req.messages[0]!.content === 'first') await gate.wait();
        return `a on ${req.messages[0]!.content}`;
      },
    });
    const workflow = new ConcurrentWorkflow({ agents });
    const first = workflow.run('first');
    await gate.until(1);
    const second = await workflow.run('second');
    gate.open();

    expect(second.results.map((r) => r.status === 'done' && r.output)).toEqual([
      'a on second',
      'b says: second',
    ]);
    expect((await first).results.map((r) => r.status === 'done' && r.output)).toEqual([
      'a on first',
      'b says: first',
    ]);
  });

  it('rejects bad options at construction, naming the option', () => {
    const { agents } = team(['a']);
    expect(() => new ConcurrentWorkflow({ agents, onError: 'ignore' as 'store' })).toThrow(/onError must be/);
    expect(() => new ConcurrentWorkflow({ agents, maxWorkers: 0 })).toThrow(
      /maxWorkers must be an integer >= 1/,
    );
    expect(() => new ConcurrentWorkflow({ agents, maxWorkers: 2.5 })).toThrow(
      'ConcurrentWorkflow: maxWorkers must be an integer >= 1 or Infinity (got 2.5).',
    );
    expect(() => new ConcurrentWorkflow({ agents, maxWorkers: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => new ConcurrentWorkflow({ agents, aggregator: {} as Agent })).toThrow(ConfigError);
    expect(() => new ConcurrentWorkflow({ agents: [] })).toThrow(/at least 1/);
  });

  it("rethrows a member's abort even when the run's own signal has not fired", async () => {
    const { agents } = team(['a', 'b'], {
      a: () => {
        throw new AbortError('the provider call was cancelled');
      },
    });
    await expect(new ConcurrentWorkflow({ agents }).run('go')).rejects.toBeInstanceOf(AbortError);
  });

  it('is interrupted when a nested topology answered from part of its work because of the budget', async () => {
    const { byName } = team(['a', 'b']);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.a!, byName.b!] });
    // The outer workflow is never refused a call: only the nested panel knows it was cut short.
    const result = await new ConcurrentWorkflow({ agents: [panel] }).run('go', { budget: { maxCalls: 1 } });

    expect(result).toMatchObject({
      output: 'a says: go',
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
    expect(result.results).toEqual([{ agent: 'panel', status: 'done', output: 'a says: go' }]);
  });
});
