import { AbortError, BudgetExceededError, ConfigError } from '@swarm/core';
import { Gate } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { BatchedGridWorkflow } from './batched-grid-workflow.js';
import { callsOf, team } from './test-support.js';

describe('BatchedGridWorkflow', () => {
  it('runs member i on task i, at once, with results in input order', async () => {
    const gate = new Gate();
    const { model, agents } = team(['translator', 'summarizer'], {
      translator: (req) => gate.wait().then(() => `translated: ${req.messages[0]!.content}`),
      summarizer: (req) => `summary: ${req.messages[0]!.content}`,
    });
    const running = new BatchedGridWorkflow({ agents }).run(['Bonjour', 'A long text']);
    await gate.until(1);
    await new Promise((r) => setImmediate(r));
    expect(callsOf(model, 'summarizer')).toHaveLength(1);
    gate.open();
    const result = await running;

    expect(result.results).toEqual([
      { agent: 'translator', task: 'Bonjour', status: 'done', output: 'translated: Bonjour' },
      { agent: 'summarizer', task: 'A long text', status: 'done', output: 'summary: A long text' },
    ]);
    expect(result.output).toBe('[translator]\ntranslated: Bonjour\n\n[summarizer]\nsummary: A long text');
  });

  it('gives every member the same task when given one string', async () => {
    const { agents } = team(['a', 'b']);
    const result = await new BatchedGridWorkflow({ agents }).run('same');
    expect(result.results.map((r) => [r.task, r.status])).toEqual([
      ['same', 'done'],
      ['same', 'done'],
    ]);
  });

  it('settles: a failed member keeps its place and the others their answers', async () => {
    const { agents } = team(['a', 'b'], {
      a: () => {
        throw new Error('a is down');
      },
    });
    const result = await new BatchedGridWorkflow({ agents }).run(['t1', 't2']);
    expect(result.results[0]).toMatchObject({ agent: 'a', task: 't1', status: 'failed', error: 'a is down' });
    expect(result.results[1]).toMatchObject({ agent: 'b', status: 'done', output: 'b says: t2' });
    expect(result.output).toBe('b says: t2');
  });

  it('marks cells the budget refused as skipped and the run interrupted', async () => {
    const { agents } = team(['a', 'b', 'c']);
    const result = await new BatchedGridWorkflow({ agents, maxWorkers: 1 }).run(['1', '2', '3'], {
      budget: { maxCalls: 1 },
    });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.results.map((r) => r.status)).toEqual(['done', 'skipped', 'skipped']);
    await expect(
      new BatchedGridWorkflow({ agents }).run(['1', '2', '3'], { budget: { maxCalls: 0 } }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('checks that there is one task per member', async () => {
    const { agents } = team(['a', 'b']);
    const grid = new BatchedGridWorkflow({ agents });
    await expect(grid.run(['only one'])).rejects.toThrow(/got 1 task\(s\) for 2 agent\(s\)/);
    await expect(grid.run(['x', 3 as unknown as string])).rejects.toThrow(ConfigError);
  });

  it('streams a grid run', async () => {
    const { agents } = team(['a', 'b']);
    const stream = new BatchedGridWorkflow({ agents }).stream(['t1', 't2']);
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('run.start');
    expect(types.at(-1)).toBe('run.end');
    expect((await stream.result).results.map((r) => r.task)).toEqual(['t1', 't2']);
  });

  it('rethrows an abort', async () => {
    const gate = new Gate();
    const { agents } = team(['a', 'b'], { a: () => gate.wait().then(() => 'late') });
    const controller = new AbortController();
    const running = new BatchedGridWorkflow({ agents }).run(['1', '2'], { signal: controller.signal });
    await gate.until(1);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });
});
