import { AbortError, ConfigError } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { AgentRearrange } from './agent-rearrange.js';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { SequentialWorkflow } from './sequential-workflow.js';
import { callsOf, team } from './test-support.js';

const names = ['researcher', 'writer', 'critic', 'editor'];

describe('AgentRearrange', () => {
  it("by default (swarms' 'full' context) gives each step the task and every earlier output as those members' turns", async () => {
    const { model, agents } = team(names, {
      researcher: 'facts',
      writer: 'draft',
      critic: 'objections',
      editor: 'final',
    });
    const rearrange = new AgentRearrange({ agents, flow: 'researcher -> writer, critic -> editor' });
    expect(rearrange.context).toBe('full');
    const result = await rearrange.run('Write about bees.');

    expect(result.output).toBe('final');
    expect(callsOf(model, 'critic')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'researcher', content: 'facts' },
    ]);
    expect(callsOf(model, 'editor')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'researcher', content: 'facts' },
      { role: 'user', name: 'writer', content: 'draft' },
      { role: 'user', name: 'critic', content: 'objections' },
    ]);
    expect(result.runs.map((r) => [r.agent, r.status, r.column])).toEqual([
      ['researcher', 'done', 1],
      ['writer', 'done', 15],
      ['critic', 'done', 23],
      ['editor', 'done', 33],
    ]);
  });

  it("with context 'previous' gives each step the task and only the previous step's outputs", async () => {
    const { model, agents } = team(names, {
      researcher: 'facts',
      writer: 'draft',
      critic: 'objections',
      editor: 'final',
    });
    await new AgentRearrange({
      agents,
      flow: 'researcher -> writer, critic -> editor',
      context: 'previous',
    }).run('Write about bees.');

    expect(callsOf(model, 'editor')[0]!.messages).toEqual([
      { role: 'user', content: 'Write about bees.' },
      { role: 'user', name: 'writer', content: 'draft' },
      { role: 'user', name: 'critic', content: 'objections' },
    ]);
  });

  it("in 'full' context a step after a branch reads the branch's inner steps too, in flow order", async () => {
    const { model, agents } = team(names, { researcher: 'facts', writer: 'draft', critic: 'objections' });
    await new AgentRearrange({ agents, flow: '(researcher -> writer), critic -> editor' }).run('go');

    expect(callsOf(model, 'editor')[0]!.messages.map((m) => m.name ?? m.content)).toEqual([
      'go',
      'researcher',
      'writer',
      'critic',
    ]);
  });

  it('runs the whole flow maxLoops times, each pass reading the passes before it', async () => {
    let drafts = 0;
    const { model, agents } = team(names, { writer: () => `draft ${++drafts}`, editor: 'notes' });
    const result = await new AgentRearrange({ agents, flow: 'writer -> editor', maxLoops: 2 }).run('go');

    expect(result.output).toBe('notes');
    expect(callsOf(model, 'writer')[1]!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'draft 1' },
      { role: 'user', name: 'editor', content: 'notes' },
    ]);
    expect(result.runs.map((r) => [r.agent, r.loop])).toEqual([
      ['writer', 1],
      ['editor', 1],
      ['writer', 2],
      ['editor', 2],
    ]);
    expect(() => new AgentRearrange({ agents, flow: 'writer', maxLoops: 0 })).toThrow(/maxLoops/);
    expect(() => new AgentRearrange({ agents, flow: 'writer', context: 'all' as unknown as 'full' })).toThrow(
      /context must be 'full' or 'previous'/,
    );
  });

  it('with teamAwareness tells each member its step and who works before and after it', async () => {
    const { model, agents } = team(names);
    await new AgentRearrange({
      agents,
      flow: 'researcher -> writer, critic -> editor',
      teamAwareness: true,
    }).run('go');

    expect(callsOf(model, 'critic')[0]!.messages[1]).toEqual({
      role: 'user',
      content:
        'You are "critic", step 2 of 3 in the flow "researcher -> writer, critic -> editor". Before you: researcher. After you: editor.',
    });
    expect(callsOf(model, 'researcher')[0]!.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'user',
        content:
          'You are "researcher", step 1 of 3 in the flow "researcher -> writer, critic -> editor". Before you: nobody, you start. After you: writer, critic.',
      },
    ]);
  });

  it('keeps the parallel members in flow order when they finish out of order', async () => {
    const gate = new Gate();
    const { model, agents } = team(names, {
      writer: () => gate.wait().then(() => 'draft'),
      critic: 'objections',
      editor: (req) => req.messages.map((m) => m.name ?? 'task').join(' + '),
    });
    const finished: string[] = [];
    const running = new AgentRearrange({ agents, flow: 'writer, critic -> editor' }).run('go', {
      onEvent: (e) => e.type === 'agent.end' && finished.push(String(e.agent)),
    });
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    expect(finished).toEqual(['critic']);
    expect(callsOf(model, 'editor')).toHaveLength(0);
    gate.open();
    const result = await running;

    expect(result.output).toBe('task + writer + critic');
    expect(result.runs.map((r) => r.agent)).toEqual(['writer', 'critic', 'editor']);
  });

  it('runs a member again when the flow repeats it, and joins a parallel last step', async () => {
    const { model, agents } = team(names, {
      writer: (req) => (req.messages.length === 1 ? 'draft 1' : 'draft 2'),
      critic: 'too long',
      editor: 'ok',
    });
    const result = await new AgentRearrange({ agents, flow: 'writer -> critic -> writer, editor' }).run('go');

    expect(callsOf(model, 'writer')).toHaveLength(2);
    expect(callsOf(model, 'writer')[1]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'critic',
      content: 'too long',
    });
    expect(result.output).toBe('[writer]\ndraft 2\n\n[editor]\nok');
    expect(result.runs.map((r) => `${r.agent}@${r.column}`)).toEqual([
      'writer@1',
      'critic@11',
      'writer@21',
      'editor@29',
    ]);
  });

  it('runs a parenthesized branch as one parallel item and hands on its last outputs', async () => {
    const { model, agents } = team(names, {
      researcher: 'facts',
      writer: 'draft',
      critic: 'fine',
      editor: 'final',
    });
    const result = await new AgentRearrange({ agents, flow: 'researcher -> (writer -> critic), editor' }).run(
      'go',
    );

    expect(callsOf(model, 'critic')[0]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'writer',
      content: 'draft',
    });
    expect(callsOf(model, 'editor')[0]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'researcher',
      content: 'facts',
    });
    expect(result.output).toBe('[critic]\nfine\n\n[editor]\nfinal');
  });

  it('asks the human function at H, with the text an agent would get, and hands on the answer', async () => {
    const { model, agents } = team(names, { researcher: 'two options: A or B' });
    const asked: { input: string; previous: unknown }[] = [];
    const rearrange = new AgentRearrange({
      agents,
      flow: 'researcher -> H -> writer',
      human: async (input, info) => {
        asked.push({ input, previous: info.previous });
        return 'Go with B.';
      },
    });
    const result = await rearrange.run('Pick a plan.');

    expect(asked).toEqual([
      {
        input: '[user]\nPick a plan.\n\n[researcher]\ntwo options: A or B',
        previous: [{ agent: 'researcher', output: 'two options: A or B' }],
      },
    ]);
    // The reviewer's answer travels with the work it reviewed.
    expect(callsOf(model, 'writer')[0]!.messages).toEqual([
      { role: 'user', content: 'Pick a plan.' },
      { role: 'user', name: 'researcher', content: 'two options: A or B' },
      { role: 'user', name: 'human', content: 'Go with B.' },
    ]);
    expect(result.runs[1]).toEqual({ agent: 'human', status: 'done', output: 'Go with B.', column: 15 });
  });

  it("shows a member its own earlier output as its assistant turn, before the human's notes", async () => {
    const { model, agents } = team(names, { writer: (req) => `draft ${req.messages.length}` });
    const result = await new AgentRearrange({
      agents,
      flow: 'writer -> H -> writer',
      human: () => 'shorter',
    }).run('go');

    expect(callsOf(model, 'writer')[1]!.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'draft 1' },
      { role: 'user', name: 'human', content: 'shorter' },
    ]);
    expect(result.output).toBe('draft 3');
  });

  it('keeps its own output as a named turn when it would close the input', async () => {
    const { model, agents } = team(names, { writer: (req) => `draft ${req.messages.length}` });
    await new AgentRearrange({ agents, flow: 'writer -> writer' }).run('go');

    expect(callsOf(model, 'writer')[1]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'writer',
      content: 'draft 1',
    });
  });

  it('refuses a flow with H when no human function is given, at construction', () => {
    const { agents } = team(names);
    expect(() => new AgentRearrange({ agents, flow: 'researcher -> H' })).toThrow(
      /human step \(H\) but no human/,
    );
  });

  it("fails the run when the human's answer is not a string", async () => {
    const { agents } = team(names);
    const rearrange = new AgentRearrange({
      agents,
      flow: 'H -> writer',
      human: () => 42 as unknown as string,
    });
    await expect(rearrange.run('go')).rejects.toThrow(/human\(\) must return a string/);
  });

  it('rejects with AbortError while the human is still thinking', async () => {
    const { agents } = team(names);
    const controller = new AbortController();
    const rearrange = new AgentRearrange({
      agents,
      flow: 'H -> writer',
      human: () => new Promise(() => undefined),
    });
    const running = rearrange.run('go', { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });

  it("lets a failed member's parallel siblings finish, then fails the run before the next step", async () => {
    const gate = new Gate();
    const { model, agents } = team(names, {
      writer: () => gate.wait().then(() => 'draft'),
      critic: () => {
        throw new Error('critic is down');
      },
    });
    const finished: string[] = [];
    const running = new AgentRearrange({ agents, flow: 'writer, critic -> editor' }).run('go', {
      onEvent: (e) => e.type === 'agent.end' && finished.push(String(e.agent)),
    });
    let settled = false;
    running.catch(() => undefined).finally(() => (settled = true));
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    // The critic has failed, but the run waits for the writer.
    expect(settled).toBe(false);
    gate.open();
    await expect(running).rejects.toThrow('critic is down');
    expect(finished).toEqual(['writer']);
    expect(callsOf(model, 'editor')).toHaveLength(0);
  });

  it('answers from the last completed step when the budget stops the flow', async () => {
    const { agents } = team(names, { researcher: 'facts', writer: 'draft' });
    const result = await new AgentRearrange({ agents, flow: 'researcher -> writer, critic -> editor' }).run(
      'go',
      {
        budget: { maxCalls: 2 },
      },
    );

    expect(result).toMatchObject({ output: 'facts', interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.runs.map((r) => [r.agent, r.status])).toEqual([
      ['researcher', 'done'],
      ['writer', 'done'],
      ['critic', 'skipped'],
    ]);
  });

  it('runs a topology named in the flow, nested in the run', async () => {
    const { model, byName } = team(names, { researcher: 'facts', writer: 'draft', editor: 'final' });
    const drafting = new SequentialWorkflow({
      name: 'drafting',
      agents: [byName.researcher!, byName.writer!],
    });
    const result = await new AgentRearrange({
      agents: [drafting, byName.editor!],
      flow: 'drafting -> editor',
    }).run('go');

    expect(result.output).toBe('final');
    expect(callsOf(model, 'editor')[0]!.messages.at(-1)).toEqual({
      role: 'user',
      name: 'drafting',
      content: 'draft',
    });
    expect(result.llmCalls).toBe(3);
  });

  it('keeps two concurrent runs of one instance apart', async () => {
    const gate = new Gate();
    const { agents } = team(names, {
      writer: async (req) => {
        if (req.messages[0]!.content === 'first') await gate.wait();
        return `draft of ${req.messages[0]!.content}`;
      },
    });
    const rearrange = new AgentRearrange({ agents, flow: 'writer -> editor' });
    const first = rearrange.run('first');
    await gate.until(1);
    const second = await rearrange.run('second');
    gate.open();

    expect(second.output).toBe('editor says: draft of second');
    expect((await first).output).toBe('editor says: draft of first');
    expect((await first).runs).toHaveLength(2);
  });

  it('explains the plan without calling a model', () => {
    const { model, agents } = team(names);
    const rearrange = new AgentRearrange({
      agents,
      flow: 'researcher -> writer, critic -> (editor -> H), writer -> editor',
      human: () => 'ok',
    });

    expect(rearrange.explain()).toBe(
      [
        'Flow: researcher -> writer, critic -> (editor -> H), writer -> editor',
        '1. researcher gets the task.',
        '2. In parallel, each given the task and the output of researcher:',
        '   - writer',
        '   - critic',
        '3. In parallel, each given the task and the outputs of writer, critic:',
        '   - a branch:',
        '     3.1.1. editor gets the task and the outputs of writer, critic.',
        '     3.1.2. A human (H) gets the task and the output of editor, and hands it on with their answer.',
        '   - writer',
        '4. editor gets the task and the outputs of editor, H, writer.',
        'The answer is the output of editor.',
      ].join('\n'),
    );
    expect(model.calls).toHaveLength(0);
  });

  it('explains a step that is one branch without calling it parallel', () => {
    const { agents } = team(names);
    expect(new AgentRearrange({ agents, flow: '(researcher -> writer) -> editor' }).explain()).toBe(
      [
        'Flow: (researcher -> writer) -> editor',
        '1. A branch, given the task:',
        '   1.1.1. researcher gets the task.',
        '   1.1.2. writer gets the task and the output of researcher.',
        '2. editor gets the task and the output of writer.',
        'The answer is the output of editor.',
      ].join('\n'),
    );
  });

  it('rejects bad flows and options at construction', () => {
    const { agents } = team(names);
    expect(() => new AgentRearrange({ agents, flow: 'researcher -> nobody' })).toThrow(ConfigError);
    expect(() => new AgentRearrange({ agents, flow: 'writer', maxWorkers: 1.5 })).toThrow(/maxWorkers/);
    expect(() => new AgentRearrange({ agents, flow: 'writer', human: 'yes' as never })).toThrow(
      /human must be/,
    );
  });
  it('runs at most maxWorkers members at once across the whole flow, nested branches included', async () => {
    const gate = new Gate();
    const { model, agents } = team(names, {
      researcher: () => gate.wait().then(() => 'r'),
      writer: () => gate.wait().then(() => 'w'),
      critic: () => gate.wait().then(() => 'c'),
      editor: () => gate.wait().then(() => 'e'),
    });
    const running = new AgentRearrange({
      agents,
      flow: '(researcher, writer), (critic, editor)',
      maxWorkers: 2,
    }).run('go');
    await gate.until(2);
    await new Promise((r) => setImmediate(r));
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['researcher', 'writer']);
    gate.open();
    expect((await running).output).toBe('[researcher]\nr\n\n[writer]\nw\n\n[critic]\nc\n\n[editor]\ne');
  });

  it('says that H is reserved when a member is named "H", before asking for a human function', () => {
    const { agents } = team(['writer', 'H']);
    expect(() => new AgentRearrange({ agents, flow: 'writer -> H' })).toThrow(
      /a member is named "H", which the flow reserves for the human step/,
    );
  });

  it('stops the flow after a nested topology that answered from part of its work because of the budget', async () => {
    const { model, byName } = team(names);
    const panel = new ConcurrentWorkflow({ name: 'panel', agents: [byName.writer!, byName.critic!] });
    const result = await new AgentRearrange({ agents: [panel, byName.editor!], flow: 'panel -> editor' }).run(
      'go',
      { budget: { maxCalls: 1 } },
    );

    expect(result).toMatchObject({
      output: 'writer says: go',
      interrupted: true,
      interruptionReason: 'budget:calls',
    });
    expect(result.runs.map((r) => [r.agent, r.status])).toEqual([['panel', 'done']]);
    expect(callsOf(model, 'editor')).toHaveLength(0);
  });

  it('emits rearrange.step as each step starts, branch steps numbered inside their step', async () => {
    const { agents } = team(names);
    const steps: unknown[] = [];
    await new AgentRearrange({ agents, flow: 'researcher -> (writer -> critic), editor' }).run('go', {
      onEvent: (e) => e.type === 'rearrange.step' && steps.push([e.step, e.items]),
    });

    expect(steps).toEqual([
      ['1', 1],
      ['2', 2],
      ['2.1.1', 1],
      ['2.1.2', 1],
    ]);
  });
});
