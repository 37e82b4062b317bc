import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { ModelRequest } from '../contracts/model.js';
import { asTool } from '../primitives/as-tool.js';
import { tool } from '../primitives/tool.js';
import { respond, ScriptedModel } from '../testing/scripted-model.js';
import { memoryJournal } from './journal.js';
import { RunContext } from './run-context.js';

// A model whose answer depends only on the request: it asks for `lookup` once per question, then
// answers with what the tool said. Counts the calls that reach it.
function lookupModel(): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      const last = request.messages.at(-1)!;
      if (last.role === 'tool') return `The answer is ${last.content}.`;
      if (request.tools?.some((t) => t.name === 'lookup')) {
        return {
          text: '',
          toolCalls: [{ id: `call_${last.content.length}`, name: 'lookup', arguments: { q: last.content } }],
        };
      }
      return `echo: ${last.content}`;
    }),
  });
}

function countingLookup() {
  const seen: string[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a question up.',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      seen.push(q);
      return `${q.length} letters`;
    },
  });
  return { lookup, seen };
}

describe('a journaled run', () => {
  it('answers the calls the journal holds without the model or the tool, with the same result', async () => {
    const journal = memoryJournal();
    const { lookup, seen } = countingLookup();
    const first = lookupModel();
    const agent = new Agent({ name: 'clerk', model: first, tools: [lookup] });
    const live = await agent.run('How tall is it?', { journal, runId: 'run-1' });
    expect(first.calls).toHaveLength(2);
    expect(seen).toEqual(['How tall is it?']);
    expect(live).toMatchObject({ llmCalls: 2, replayedCalls: 0, liveCalls: 2 });

    const second = lookupModel();
    const events: SwarmEvent[] = [];
    const again = new Agent({ name: 'clerk', model: second, tools: [lookup] });
    const replayed = await again.run('How tall is it?', {
      journal,
      runId: 'run-1',
      onEvent: (e) => events.push(e),
    });
    expect(second.calls).toHaveLength(0);
    expect(seen).toHaveLength(1);
    expect(replayed.output).toBe(live.output);
    expect(replayed.usage).toEqual(live.usage);
    expect(replayed.messages).toEqual(live.messages);
    expect(replayed).toMatchObject({ llmCalls: 2, replayedCalls: 2, liveCalls: 0 });
    const marked = events.filter((e) =>
      ['model.request', 'model.response', 'tool.call', 'tool.result'].includes(e.type),
    );
    expect(marked.map((e) => `${e.type}:${e.replayed}`)).toEqual([
      'model.request:true',
      'model.response:true',
      'tool.call:true',
      'tool.result:true',
      'model.request:true',
      'model.response:true',
    ]);
  });

  it('goes on live from the first call the journal does not hold', async () => {
    const journal = memoryJournal();
    const { lookup, seen } = countingLookup();
    // The first run dies after the tool answered: the second model call never returned.
    const dying = new ScriptedModel([], {
      fallback: respond((request: ModelRequest, index: number) => {
        if (index === 1) throw new Error('process killed');
        return lookupModel().generate(request);
      }),
    });
    await expect(
      new Agent({ name: 'clerk', model: dying, tools: [lookup] }).run('Why?', { journal, runId: 'r' }),
    ).rejects.toThrow('process killed');
    const model = lookupModel();
    const result = await new Agent({ name: 'clerk', model, tools: [lookup] }).run('Why?', {
      journal,
      runId: 'r',
    });
    expect(model.calls).toHaveLength(1);
    expect(seen).toEqual(['Why?']);
    expect(result).toMatchObject({ output: 'The answer is 4 letters.', replayedCalls: 1, liveCalls: 1 });
  });

  it('replays the calls of runs nested through asTool, by their place in the run tree', async () => {
    const journal = memoryJournal();
    const { lookup, seen } = countingLookup();
    const build = (model: ScriptedModel) => {
      const expert = new Agent({ name: 'expert', model, tools: [lookup] });
      return new Agent({
        name: 'desk',
        model: new ScriptedModel([], {
          fallback: respond((request: ModelRequest) => {
            const last = request.messages.at(-1)!;
            if (last.role === 'tool') return `Desk: ${last.content}`;
            return {
              text: '',
              toolCalls: [
                { id: 'a', name: 'expert', arguments: { task: 'first question' } },
                { id: 'b', name: 'expert', arguments: { task: 'second one' } },
              ],
            };
          }),
        }),
        tools: [asTool(expert)],
      });
    };
    const firstExpert = lookupModel();
    const live = await build(firstExpert).run('Help', { journal, runId: 'nested' });
    expect(firstExpert.calls).toHaveLength(4);
    const secondExpert = lookupModel();
    const events: SwarmEvent[] = [];
    const again = await build(secondExpert).run('Help', {
      journal,
      runId: 'nested',
      onEvent: (e) => events.push(e),
    });
    expect(secondExpert.calls).toHaveLength(0);
    expect(seen.sort()).toEqual(['first question', 'second one']);
    expect(again.output).toBe(live.output);
    // The totals count the nested runs' calls, live the first time and replayed the second.
    expect(live).toMatchObject({ llmCalls: 6, ownLlmCalls: 2, replayedCalls: 0, liveCalls: 6 });
    expect(again).toMatchObject({ llmCalls: 6, ownLlmCalls: 2, replayedCalls: 6, liveCalls: 0 });
    expect(again.usage).toEqual(live.usage);
    const nestedCalls = events.filter((e) => e.type === 'model.response' && e.agent === 'expert');
    expect(nestedCalls).toHaveLength(4);
    expect(nestedCalls.every((e) => e.replayed === true)).toBe(true);
  });

  it('calls the model again where the request changed, and says where the journal stopped matching', async () => {
    const journal = memoryJournal();
    const { lookup } = countingLookup();
    await new Agent({ name: 'clerk', instructions: 'Be brief.', model: lookupModel(), tools: [lookup] }).run(
      'Why?',
      {
        journal,
        runId: 'changed',
      },
    );
    const model = lookupModel();
    const events: SwarmEvent[] = [];
    const result = await new Agent({
      name: 'clerk',
      instructions: 'Be thorough.',
      model,
      tools: [lookup],
    }).run('Why?', { journal, runId: 'changed', onEvent: (e) => events.push(e) });
    expect(model.calls).toHaveLength(2);
    expect(result).toMatchObject({ replayedCalls: 0, liveCalls: 2 });
    const diverged = events.filter((e) => e.type === 'journal.diverged');
    expect(diverged).toHaveLength(1);
    expect(diverged[0]).toMatchObject({ unmatched: 3, path: ['clerk'], agent: 'clerk', purpose: 'agent' });
    expect(events.at(-1)?.type).toBe('agent.end');
  });

  it('numbers identical concurrent requests by their order, so each replays once', async () => {
    const journal = memoryJournal();
    const model = new ScriptedModel([], {
      fallback: respond((_r: ModelRequest, i: number) => `answer ${i}`),
    });
    const context = new RunContext({ journal, runId: 'same' });
    const request = { messages: [{ role: 'user' as const, content: 'Same question' }] };
    const live = await Promise.all([0, 1, 2].map(() => context.callModel(model, request)));
    expect(live.map((r) => r.text)).toEqual(['answer 0', 'answer 1', 'answer 2']);
    const resumed = new RunContext({ journal, runId: 'same' });
    const replayed = await Promise.all([0, 1, 2, 3].map(() => resumed.callModel(model, request)));
    expect(replayed.map((r) => r.text)).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3']);
    expect(model.calls).toHaveLength(4);
    expect(resumed).toMatchObject({ llmCalls: 4, replayedCalls: 3 });
  });

  it('counts replayed calls against the budget, so a resumed run stops where the first did', async () => {
    const journal = memoryJournal();
    const model = new ScriptedModel([], { fallback: respond(() => 'ok') });
    const request = { messages: [{ role: 'user' as const, content: 'q' }] };
    const first = new RunContext({ journal, runId: 'budget' });
    await first.callModel(model, request);
    const resumed = new RunContext({ journal, runId: 'budget', budget: { maxCalls: 0 } });
    await expect(resumed.callModel(model, request)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });
});

describe('bad journal input', () => {
  it('rejects a run id that could name a path, before anything is written', async () => {
    const journal = memoryJournal();
    const agent = new Agent({ name: 'a', model: lookupModel() });
    for (const runId of ['../escape', 'a/b', '', '.hidden', 'x'.repeat(129), 'a\\b']) {
      await expect(agent.run('hi', { journal, runId })).rejects.toMatchObject({
        code: 'CONFIG',
        message: expect.stringContaining('runId must be 1 to 128 letters'),
      });
    }
    expect(() => new RunContext({ runId: 'a b' })).toThrow(/runId must be/);
    expect(await journal.read('escape')).toEqual([]);
  });

  it('rejects approvals without a journal, or without the run id, and a journal on a nested run', async () => {
    const agent = new Agent({ name: 'a', model: lookupModel() });
    await expect(agent.run('hi', { approvals: { x: { approved: true } } })).rejects.toThrow(
      /approvals resume a paused run from its journal/,
    );
    await expect(
      agent.run('hi', { journal: memoryJournal(), approvals: { x: { approved: true } } }),
    ).rejects.toThrow(/give its runId too/);
    const parent = new RunContext({ journal: memoryJournal() });
    expect(() => new RunContext({ parent, journal: memoryJournal() })).toThrow(
      /uses the journal of its outermost run/,
    );
    await expect(
      agent.run('hi', {
        journal: memoryJournal(),
        runId: 'r',
        approvals: { x: { approved: 'yes' } as never },
      }),
    ).rejects.toThrow(/approvals\["x"\] must be \{ approved: boolean/);
    expect(() => new RunContext({ journal: {} as never })).toThrow(/journal must be a Journal/);
  });

  it('rejects a journal entry a store hands back that is not one, naming it', async () => {
    const journal = {
      read: async () => [{ type: 'model', key: 'k' }] as never,
      append: async () => {},
    };
    await expect(
      new Agent({ name: 'a', model: lookupModel() }).run('hi', { journal, runId: 'r' }),
    ).rejects.toThrow(/entry 1 of the journal of run r is not a journal entry at path/);
  });
});
