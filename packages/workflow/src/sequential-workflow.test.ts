import { AbortError, BudgetExceededError, ConfigError, type SwarmEvent } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { SequentialWorkflow } from './sequential-workflow.js';
import { callsOf, team } from './test-support.js';

describe('SequentialWorkflow', () => {
  it("by default (swarms' 'full' context) gives each member the task and every earlier output, as typed turns", async () => {
    const { model, agents } = team(['researcher', 'writer', 'editor'], {
      researcher: 'notes on bees',
      writer: 'a draft about bees',
      editor: 'the final article',
    });
    const workflow = new SequentialWorkflow({ agents });
    expect(workflow.context).toBe('full');
    const result = await workflow.run('Write about bees.');

    expect(result.output).toBe('the final article');
    expect(result.steps).toEqual([
      { agent: 'researcher', output: 'notes on bees' },
      { agent: 'writer', output: 'a draft about bees' },
      { agent: 'editor', output: 'the final article' },
    ]);
    expect(callsOf(model, 'researcher')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
    ]);
    expect(callsOf(model, 'writer')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'researcher', content: 'notes on bees' },
    ]);
    expect(callsOf(model, 'editor')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'researcher', content: 'notes on bees' },
      { role: 'user', name: 'writer', content: 'a draft about bees' },
    ]);
  });

  it("with context 'previous' gives each member the task and only the previous member's output", async () => {
    const { model, agents } = team(['researcher', 'writer', 'editor'], {
      researcher: 'notes on bees',
      writer: 'a draft about bees',
    });
    await new SequentialWorkflow({ agents, context: 'previous' }).run('Write about bees.');

    expect(callsOf(model, 'editor')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'writer', content: 'a draft about bees' },
    ]);
  });

  it('runs the pipeline maxLoops times, each member reading its own earlier answer as its turn', async () => {
    let drafts = 0;
    const { model, agents } = team(['writer', 'editor'], {
      writer: () => `draft ${++drafts}`,
      editor: 'cut it',
    });
    const result = await new SequentialWorkflow({ agents, maxLoops: 2 }).run('Write a haiku.');

    expect(result.steps.map((s) => s.agent)).toEqual(['writer', 'editor', 'writer', 'editor']);
    expect(result.output).toBe('cut it');
    expect(callsOf(model, 'writer')[1]!.messages).toEqual([
      { role: 'user', content: 'Write a haiku.' },
      { role: 'assistant', content: 'draft 1' },
      { role: 'user', name: 'editor', content: 'cut it' },
    ]);
    expect(() => new SequentialWorkflow({ agents, maxLoops: 0 })).toThrow(/maxLoops/);
  });

  it('with teamAwareness tells each member its place: who is before and after it', async () => {
    const { model, agents } = team(['researcher', 'writer', 'editor']);
    await new SequentialWorkflow({ agents, teamAwareness: true }).run('go');

    expect(callsOf(model, 'researcher')[0]!.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'user',
        content:
          'You are "researcher", step 1 of 3 in the sequential workflow researcher -> writer -> editor. Before you: nobody, you start. After you: writer, editor.',
      },
    ]);
    expect(callsOf(model, 'editor')[0]!.messages[1]).toEqual({
      role: 'user',
      content:
        'You are "editor", step 3 of 3 in the sequential workflow researcher -> writer -> editor. Before you: researcher, writer. After you: nobody, your answer is the final one.',
    });
    expect(callsOf(model, 'editor')[0]!.messages).toHaveLength(4);
  });

  it('answers from the last member that answered when the budget stops the pipeline', async () => {
    const { model, agents } = team(['a', 'b', 'c'], { a: 'first', b: 'second' });
    const result = await new SequentialWorkflow({ agents }).run('go', { budget: { maxCalls: 2 } });

    expect(result).toMatchObject({ output: 'second', interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.steps.map((s) => s.agent)).toEqual(['a', 'b']);
    expect(model.calls).toHaveLength(2);
  });

  it('rejects with the budget error when not even the first member could answer', async () => {
    const { agents } = team(['a', 'b']);
    await expect(
      new SequentialWorkflow({ agents }).run('go', { budget: { maxCalls: 0 } }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('fails the run when a member fails, and the trace ends with run.error', async () => {
    const { agents } = team(['a', 'b'], {
      b: () => {
        throw new Error('b is down');
      },
    });
    const events: SwarmEvent[] = [];
    const run = new SequentialWorkflow({ agents }).run('go', { onEvent: (e) => events.push(e) });
    await expect(run).rejects.toThrow('b is down');
    expect(events.at(-1)).toMatchObject({ type: 'run.error', error: 'b is down' });
  });

  it('runs a topology as a member, handing on its output', async () => {
    const { model, agents, byName } = team(['pro', 'con', 'judge'], { pro: 'yes', con: 'no', judge: 'tie' });
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.pro!, byName.con!] });
    const result = await new SequentialWorkflow({ agents: [panel, agents[2]!] }).run('Tabs or spaces?');

    expect(result.steps[0]).toEqual({ agent: 'panel', output: '[pro]\nyes\n\n[con]\nno' });
    expect(callsOf(model, 'judge')[0]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'panel',
      content: '[pro]\nyes\n\n[con]\nno',
    });
    expect(result.llmCalls).toBe(3);
  });

  it('keeps two concurrent runs of one instance apart', async () => {
    const gate = new Gate();
    const { agents } = team(['a', 'b'], {
      a: async (req) => {
        const task = req.messages[0]!.content;
        if (task === 'first') await gate.wait();
        return `a(${task})`;
      },
      b: (req) => `b(${req.messages.at(-1)!.content})`,
    });
    const workflow = new SequentialWorkflow({ agents });
    const first = workflow.run('first');
    await gate.until(1);
    const second = await workflow.run('second');
    gate.open();

    expect(second.output).toBe('b(a(second))');
    expect((await first).output).toBe('b(a(first))');
    expect((await first).steps).toHaveLength(2);
  });

  it('rejects with AbortError when aborted mid-run', async () => {
    const gate = new Gate();
    const { agents } = team(['a'], { a: () => gate.wait().then(() => 'late') });
    const controller = new AbortController();
    const run = new SequentialWorkflow({ agents }).run('go', { signal: controller.signal });
    await gate.until(1);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(AbortError);
  });

  it('rejects a task that is not a string', async () => {
    const { agents } = team(['a']);
    await expect(new SequentialWorkflow({ agents }).run(42 as unknown as string)).rejects.toThrow(
      /task must be a string/,
    );
  });

  it('rejects bad options at construction', () => {
    const { agents } = team(['a']);
    expect(() => new SequentialWorkflow({ agents: [] })).toThrow(ConfigError);
    expect(() => new SequentialWorkflow({ agents: [agents[0]!, agents[0]!] })).toThrow(/named "a"/);
    expect(() => new SequentialWorkflow({ agents, name: '' })).toThrow(/name must be/);
  });

  it('stops after a nested topology that answered from part of its work because of the budget', async () => {
    const { model, byName } = team(['a', 'b', 'c']);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.a!, byName.b!] });
    // The pipeline is never refused a call itself: only the nested panel knows it was cut short.
    const result = await new SequentialWorkflow({ agents: [panel, byName.c!] }).run('go', {
      budget: { maxCalls: 1 },
    });

    expect(result).toMatchObject({
      output: 'a says: go',
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
    expect(result.steps).toEqual([{ agent: 'panel', output: 'a says: go' }]);
    expect(callsOf(model, 'c')).toHaveLength(0);
  });
  it("reports a nested topology's token budget stop as budget:tokens", async () => {
    const { byName } = team(['a', 'b', 'c']);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.a!, byName.b!], maxWorkers: 1 });
    // Each scripted call uses 15 tokens: the panel's second member is refused.
    const result = await new SequentialWorkflow({ agents: [panel, byName.c!] }).run('go', {
      budget: { maxTokens: 15 },
    });

    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:tokens' });
    expect(result.steps.map((s) => s.agent)).toEqual(['panel']);
  });
});
