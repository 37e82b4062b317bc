import { describe, expect, it } from 'vitest';
import { CallLog, latencyModel } from './call-log.js';
import { cases } from './cases.js';
import { type CallRecord, criticalPath, marker } from './critical-path.js';
import { measureOnce } from './measure.js';

const task = 'Summarize the history of the paperclip.';

// A call of a hand-written log: 50 ms unless said otherwise.
function call(
  id: number,
  start: number,
  input: string,
  options: { decision?: boolean; kind?: CallRecord['kind']; latencyMs?: number } = {},
): CallRecord {
  const latencyMs = options.latencyMs ?? 50;
  return {
    id,
    kind: options.kind ?? 'model',
    start,
    end: start + latencyMs,
    latencyMs,
    input,
    decision: options.decision ?? false,
  };
}

describe('criticalPath', () => {
  it('follows data: a call that was given an earlier output comes after it', () => {
    const log = [
      call(1, 0, `research: ${task}`),
      call(2, 50, `write from ${marker(1)}`),
      call(3, 100, `edit ${marker(2)}`),
    ];
    expect(criticalPath(log, [task])).toEqual({ ms: 150, chain: [1, 2, 3] });
  });

  it('counts concurrent members once and their aggregator after the slowest', () => {
    const log = [
      call(1, 0, task),
      call(2, 0, task, { latencyMs: 80 }),
      call(3, 0, task),
      call(4, 80, `${task} ${marker(1)} ${marker(2)} ${marker(3)}`),
    ];
    expect(criticalPath(log, [task])).toEqual({ ms: 130, chain: [2, 4] });
  });

  it('gives no dependency to a call that only waited: four independent tasks run one after another', () => {
    const tasks = ['task one', 'task two', 'task three', 'task four'];
    const log = tasks.map((t, i) => call(i + 1, i * 50, t));
    const path = criticalPath(log, tasks);
    expect(path.ms).toBe(50);
    // Their wall time (200 ms) is 4x this path: the measure shows the needless wait.
    expect(200 / path.ms).toBe(4);
  });

  it('makes a call depend on a decision about the same task that ended before it (a route)', () => {
    const log = [call(1, 0, `route: ${task}`, { decision: true }), call(2, 50, `member: ${task}`)];
    expect(criticalPath(log, [task]).chain).toEqual([1, 2]);
  });

  it('does not tie a call to a decision about another task', () => {
    const tasks = ['task one', 'task two'];
    const log = [call(1, 0, 'route task one', { decision: true }), call(2, 50, 'task two')];
    expect(criticalPath(log, tasks).ms).toBe(50);
  });

  it('does not tie a call to a decision on outputs it was never given (a score of another branch)', () => {
    const log = [
      call(1, 0, task),
      call(2, 50, `score ${marker(1)} on ${task}`, { decision: true }),
      call(3, 100, `a sibling on ${task}, never given call 1`),
    ];
    expect(criticalPath(log, [task])).toEqual({ ms: 100, chain: [1, 2] });
  });

  it('lets one embedding of a batch of tasks inform each task, but never makes an embedding wait on a decision', () => {
    const tasks = ['task one', 'task two'];
    const log = [
      call(1, 0, 'agent descriptions', { kind: 'embed', decision: true, latencyMs: 20 }),
      call(2, 20, 'task one\ntask two', { kind: 'embed', decision: true, latencyMs: 20 }),
      call(3, 40, 'task one'),
      call(4, 40, 'task two'),
    ];
    const path = criticalPath(log, tasks);
    // The task embedding could have run beside the descriptions': 20 + 50, though it ran after them.
    expect(path.ms).toBe(70);
    expect(path.chain.at(-1)).toBe(3);
  });
});

describe('latencyModel', () => {
  it('marks its text and the free strings of a function call, not enums, and records the call', async () => {
    const log = new CallLog();
    const model = latencyModel(log, 0);
    const parameters = {
      type: 'object',
      properties: { agent: { type: 'string', enum: ['tax', 'stocks'] }, task: { type: 'string' } },
      required: ['agent', 'task'],
    };
    const text = await model.generate({ messages: [{ role: 'user', content: task }] });
    const route = await model.generate({
      messages: [{ role: 'user', content: task }],
      tools: [{ name: 'route', description: 'Route.', parameters }],
      toolChoice: { name: 'route' },
    });

    expect(text.text).toContain(marker(1));
    expect(route.toolCalls[0]?.arguments).toEqual({ agent: 'tax', task: `task ${marker(2)}` });
    expect(log.calls.map((c) => [c.id, c.decision])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe('the benchmark', () => {
  it('measures SequentialWorkflow at its defaults: three calls in a chain, wall time over their path', async () => {
    const sequential = cases.find((c) => c.name === 'SequentialWorkflow')!;

    const m = await measureOnce(sequential, { modelMs: 5, embedMs: 5 });

    expect(m.calls).toBe(3);
    expect(m.chainLength).toBe(3);
    expect(m.criticalMs).toBe(15);
    expect(m.ratio).toBe(m.wallMs / m.criticalMs);
  });

  it('finds ConcurrentWorkflow’s members independent: three calls, one on the path', async () => {
    const concurrent = cases.find((c) => c.name === 'ConcurrentWorkflow')!;

    const m = await measureOnce(concurrent, { modelMs: 5, embedMs: 5 });

    expect(m.calls).toBe(3);
    expect(m.chainLength).toBe(1);
    expect(m.criticalMs).toBe(5);
  });
});
