import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { ModelRequest, ToolCall, Usage } from '../contracts/model.js';
import { asTool } from '../primitives/as-tool.js';
import { tool } from '../primitives/tool.js';
import { respond, ScriptedModel } from '../testing/scripted-model.js';
import { RunPausedError } from './errors.js';
import { memoryJournal, waitingApprovals } from './journal.js';

// A refund desk's model: asks for the refunds it is told to, once, then reports the tool results.
function deskModel(calls: Omit<ToolCall, 'id'>[], usage?: Partial<Usage>): ScriptedModel {
  return new ScriptedModel([], {
    ...(usage && { usage }),
    fallback: respond((request: ModelRequest) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length > 0) return `Done: ${results.map((m) => m.content).join(' | ')}`;
      return { text: '', toolCalls: calls.map((c, i) => ({ ...c, id: `call_${i}` })) };
    }),
  });
}

function refundTool(needsApproval: boolean | ((args: { amount: number }) => boolean) = true) {
  const executed: number[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount to the customer.',
    parameters: z.object({ amount: z.number() }),
    needsApproval,
    execute: ({ amount }) => {
      executed.push(amount);
      return `refunded ${amount}`;
    },
  });
  return { refund, executed };
}

const lookup = tool({
  name: 'lookup',
  description: 'Looks up the order.',
  parameters: z.object({ order: z.string() }),
  execute: ({ order }) => `order ${order} is paid`,
});

async function paused(run: Promise<unknown>): Promise<RunPausedError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunPausedError);
  return error as RunPausedError;
}

describe('a tool that needs approval', () => {
  it('pauses the run without executing the call, lets the other calls finish, and lists what waits', async () => {
    const journal = memoryJournal();
    const { refund, executed } = refundTool();
    const model = deskModel([
      { name: 'lookup', arguments: { order: 'A1' } },
      { name: 'refund', arguments: { amount: 30 } },
    ]);
    const events: SwarmEvent[] = [];
    const agent = new Agent({ name: 'desk', model, tools: [lookup, refund] });
    const pause = await paused(
      agent.run('Refund A1', { journal, runId: 'desk-1', onEvent: (e) => events.push(e) }),
    );
    expect(executed).toEqual([]);
    expect(pause.code).toBe('RUN_PAUSED');
    expect(pause.runId).toBe('desk-1');
    expect(pause.pending).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        runId: 'desk-1',
        path: ['desk'],
        agent: 'desk',
        tool: 'refund',
        arguments: { amount: 30 },
        argumentsHash: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(JSON.parse(JSON.stringify(pause.pending))).toEqual(pause.pending);
    expect(events.filter((e) => e.type === 'tool.result').map((e) => e.tool)).toEqual(['lookup']);
    expect(events.find((e) => e.type === 'approval.pending')).toMatchObject({
      tool: 'refund',
      approval: pause.pending[0],
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent.paused', agent: 'desk', pending: pause.pending });
    expect(events.some((e) => e.type === 'agent.error')).toBe(false);
  });

  it('resumes with an approval: the finished calls replay, the approved call executes once', async () => {
    const journal = memoryJournal();
    const { refund, executed } = refundTool();
    const calls = [{ name: 'refund', arguments: { amount: 30 } }];
    const first = deskModel(calls);
    const pause = await paused(
      new Agent({ name: 'desk', model: first, tools: [refund] }).run('Refund', { journal, runId: 'desk-2' }),
    );
    const id = pause.pending[0]!.id;
    // What a resume must decide on, read back from the journal alone.
    expect(waitingApprovals(await journal.read('desk-2'))).toEqual(pause.pending);
    const second = deskModel(calls);
    const result = await new Agent({ name: 'desk', model: second, tools: [refund] }).run('Refund', {
      journal,
      runId: 'desk-2',
      approvals: { [id]: { approved: true } },
    });
    expect(executed).toEqual([30]);
    expect(result.output).toBe('Done: refunded 30');
    expect(result).toMatchObject({ llmCalls: 2, replayedCalls: 1, liveCalls: 1 });
    expect(second.calls).toHaveLength(1);
    expect(waitingApprovals(await journal.read('desk-2'))).toEqual([]);
    // Once more from the journal: nothing waits, nothing is executed or asked again.
    const third = deskModel(calls);
    const again = await new Agent({ name: 'desk', model: third, tools: [refund] }).run('Refund', {
      journal,
      runId: 'desk-2',
    });
    expect(again.output).toBe('Done: refunded 30');
    expect(third.calls).toHaveLength(0);
    expect(executed).toEqual([30]);
  });

  it('answers a rejected call with the message as a tool error, without executing it', async () => {
    const journal = memoryJournal();
    const { refund, executed } = refundTool();
    const calls = [{ name: 'refund', arguments: { amount: 500 } }];
    const pause = await paused(
      new Agent({ name: 'desk', model: deskModel(calls), tools: [refund] }).run('Refund', {
        journal,
        runId: 'no',
      }),
    );
    const model = deskModel(calls);
    const result = await new Agent({ name: 'desk', model, tools: [refund] }).run('Refund', {
      journal,
      runId: 'no',
      approvals: {
        [pause.pending[0]!.id]: { approved: false, message: 'Over the limit; offer store credit.' },
      },
    });
    expect(executed).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({
      result: 'Over the limit; offer store credit.',
      isError: true,
    });
    expect(model.calls[0]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'Over the limit; offer store credit.',
    });
  });

  it('asks only when needsApproval says so for the arguments', async () => {
    const { refund, executed } = refundTool(({ amount }) => amount > 100);
    const model = deskModel([
      { name: 'refund', arguments: { amount: 20 } },
      { name: 'refund', arguments: { amount: 200 } },
    ]);
    const pause = await paused(new Agent({ name: 'desk', model, tools: [refund] }).run('Refund both'));
    expect(executed).toEqual([20]);
    expect(pause.pending.map((p) => p.arguments)).toEqual([{ amount: 200 }]);
  });

  it('surfaces from inside a nested asTool run, with the pauses of every branch in one error', async () => {
    const journal = memoryJournal();
    const { refund, executed } = refundTool();
    const build = () => {
      const billing = new Agent({
        name: 'billing',
        model: deskModel([{ name: 'refund', arguments: { amount: 10 } }]),
        tools: [refund],
      });
      return new Agent({
        name: 'triage',
        model: deskModel([
          { name: 'billing', arguments: { task: 'refund order A' } },
          { name: 'billing', arguments: { task: 'refund order B' } },
          { name: 'lookup', arguments: { order: 'C' } },
        ]),
        tools: [asTool(billing), lookup],
      });
    };
    const events: SwarmEvent[] = [];
    const pause = await paused(
      build().run('Two refunds', { journal, runId: 'nested', onEvent: (e) => events.push(e) }),
    );
    expect(pause.pending).toHaveLength(2);
    expect(pause.pending.map((p) => p.path)).toEqual([
      ['triage', 'billing'],
      ['triage', 'billing'],
    ]);
    expect(new Set(pause.pending.map((p) => p.id)).size).toBe(2);
    expect(events.filter((e) => e.type === 'agent.paused').map((e) => e.agent)).toEqual([
      'billing',
      'billing',
      'triage',
    ]);
    const approvals = Object.fromEntries(pause.pending.map((p) => [p.id, { approved: true }]));
    const result = await build().run('Two refunds', { journal, runId: 'nested', approvals });
    expect(executed).toEqual([10, 10]);
    expect(result.output).toBe('Done: Done: refunded 10 | Done: refunded 10 | order C is paid');
  });

  it("carries the run's totals so far, the nested runs' calls included, as a result does", async () => {
    const { refund } = refundTool();
    const billingModel = deskModel([{ name: 'refund', arguments: { amount: 10 } }], {
      inputTokens: 100,
      outputTokens: 7,
    });
    const triageModel = deskModel([{ name: 'billing', arguments: { task: 'refund order A' } }], {
      inputTokens: 20,
      outputTokens: 3,
    });
    const billing = new Agent({ name: 'billing', model: billingModel, tools: [refund] });
    const triage = new Agent({ name: 'triage', model: triageModel, tools: [asTool(billing)] });
    const pause = await paused(triage.run('One refund', { journal: memoryJournal(), runId: 'totals' }));
    expect(triageModel.calls.length + billingModel.calls.length).toBe(2);
    expect(pause.llmCalls).toBe(2);
    expect(pause.liveCalls).toBe(2);
    expect(pause.replayedCalls).toBe(0);
    expect(pause.usage).toMatchObject({ inputTokens: 120, outputTokens: 10, totalTokens: 130 });
  });

  it('pauses a run without a journal too, saying how to make it resumable', async () => {
    const { refund } = refundTool();
    const pause = await paused(
      new Agent({
        name: 'desk',
        model: deskModel([{ name: 'refund', arguments: { amount: 1 } }]),
        tools: [refund],
      }).run('Refund'),
    );
    expect(pause.pending).toHaveLength(1);
    expect(pause.message).toMatch(/same journal and runId/);
  });

  it('rejects approvals for a call the run does not wait for, before anything runs or is written', async () => {
    const journal = memoryJournal();
    const { refund } = refundTool();
    const calls = [{ name: 'refund', arguments: { amount: 5 } }];
    const pause = await paused(
      new Agent({ name: 'desk', model: deskModel(calls), tools: [refund] }).run('Refund', {
        journal,
        runId: 'typo',
      }),
    );
    const before = await journal.read('typo');
    const model = deskModel(calls);
    const run = new Agent({ name: 'desk', model, tools: [refund] }).run('Refund', {
      journal,
      runId: 'typo',
      approvals: { deadbeefdeadbeef: { approved: true } },
    });
    await expect(run).rejects.toMatchObject({ code: 'CONFIG' });
    await expect(run).rejects.toThrow(`it waits for ${pause.pending[0]!.id}`);
    expect(model.calls).toHaveLength(0);
    expect(await journal.read('typo')).toEqual(before);
    await expect(
      new Agent({ name: 'desk', model, tools: [refund] }).run('Refund', {
        journal,
        runId: 'never-paused',
        approvals: { deadbeefdeadbeef: { approved: true } },
      }),
    ).rejects.toThrow(/its journal holds no call waiting for approval/);
  });

  it('reports an approval the resumed run never reached as a ConfigError', async () => {
    const journal = memoryJournal();
    const { refund } = refundTool();
    const pause = await paused(
      new Agent({
        name: 'desk',
        model: deskModel([{ name: 'refund', arguments: { amount: 5 } }]),
        tools: [refund],
      }).run('Refund', { journal, runId: 'changed' }),
    );
    // The code changed: the desk no longer asks for the refund, so the approved call never comes.
    const events: SwarmEvent[] = [];
    const run = new Agent({
      name: 'desk',
      model: deskModel([{ name: 'lookup', arguments: { order: 'Z' } }]),
      tools: [refund, lookup],
    }).run('Refund', {
      journal,
      runId: 'changed',
      approvals: { [pause.pending[0]!.id]: { approved: true } },
      onEvent: (e) => events.push(e),
    });
    await expect(run).rejects.toThrow(
      new RegExp(`approvals for ${pause.pending[0]!.id} were given, but run changed never reached`),
    );
    expect(events.at(-1)).toMatchObject({ type: 'agent.error', code: 'CONFIG' });
  });

  it('rejects needsApproval on a tool that is not journaled, and a needsApproval of another kind', () => {
    const base = { name: 't', description: 'd', parameters: z.object({}), execute: () => 'x' };
    expect(() => tool({ ...base, needsApproval: true, journaled: false })).toThrow(/must be journaled/);
    expect(() => tool({ ...base, needsApproval: 'yes' as never })).toThrow(
      /needsApproval must be a boolean or a function/,
    );
  });
});
