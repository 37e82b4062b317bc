import {
  BaseTopology,
  ConfigError,
  type ModelRequest,
  messageText,
  type SwarmEvent,
  type TopologyResult,
} from '@swarm/core';
import { fail, Gate, respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { HeavySwarm } from './heavy-swarm.js';
import { headModel, seen, steadyWorker, worker } from './hierarchy.fixture.js';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';

const task = (id: string, text: string, priority: number, dependsOn?: string[]) => ({
  id,
  task: text,
  priority,
  ...(dependsOn && { dependsOn }),
});
const complete = { isComplete: true, quality: 9, gaps: [], followUp: [] };
const taskOf = (request: ModelRequest | undefined) =>
  /Your task \((\w+)\)/.exec(messageText(request?.messages.at(-1) ?? { content: '' }))?.[1];

describe('PlannerWorkerSwarm', () => {
  it('has a free worker claim the most urgent ready task first', async () => {
    const started: string[] = [];
    const solo = worker(
      'solo',
      ...Array.from({ length: 4 }, () =>
        respond((request) => {
          started.push(taskOf(request)!);
          return `did ${taskOf(request)}`;
        }),
      ),
    );
    const planner = headModel({
      planner: [
        {
          tasks: [
            task('low', 'tidy up', 1),
            task('urgent', 'fix the outage', 9),
            task('after', 'write the post-mortem', 10, ['urgent']),
            task('mid', 'reply to customers', 5),
          ],
        },
      ],
      judge: [complete],
      synthesis: ['all handled'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [solo.agent] }).run(
      'Handle the incident.',
    );

    expect(started).toEqual(['urgent', 'after', 'mid', 'low']);
    expect(result.output).toBe('all handled');
    expect(result.cycles[0]!.tasks.map((t) => [t.id, t.status, t.worker])).toEqual([
      ['low', 'done', 'solo'],
      ['urgent', 'done', 'solo'],
      ['after', 'done', 'solo'],
      ['mid', 'done', 'solo'],
    ]);
  });

  it('runs as many tasks at once as there are free workers, each on its own worker', async () => {
    const gate = new Gate();
    const gated = (name: string) =>
      worker(
        name,
        ...Array.from({ length: 2 }, () =>
          respond(async (request) => {
            await gate.wait();
            return `${name} did ${taskOf(request)}`;
          }),
        ),
      );
    const [w1, w2] = [gated('w1'), gated('w2')];
    const planner = headModel({
      planner: [{ tasks: [task('a', 'A', 5), task('b', 'B', 5), task('c', 'C', 5)] }],
      judge: [complete],
      synthesis: ['done'],
    });
    const running = new PlannerWorkerSwarm({ planner, workers: [w1!.agent, w2!.agent] }).run('goal');
    await gate.until(2);
    await new Promise((r) => setImmediate(r));
    expect(gate.waiting).toBe(2);
    expect([taskOf(w1!.model.lastCall), taskOf(w2!.model.lastCall)]).toEqual(['a', 'b']);
    gate.open();
    const result = await running;
    expect(result.cycles[0]!.tasks.map((t) => t.output)).toEqual(['w1 did a', 'w2 did b', 'w1 did c']);
  });

  it('rejects a plan with a dependency cycle or an unknown dependency and asks the planner to repair it', async () => {
    const solo = steadyWorker('solo');
    const planner = headModel({
      planner: [
        { tasks: [task('a', 'A', 5, ['b']), task('b', 'B', 5, ['a'])] },
        { tasks: [task('a', 'A', 5, ['zzz'])] },
        { tasks: [task('a', 'A', 5), task('b', 'B', 5, ['a'])] },
      ],
      judge: [complete],
      synthesis: ['done'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [solo.agent] }).run('goal');

    expect(planner.calls[1]!.messages.at(-1)!.content).toContain(
      'the dependencies form a cycle: a -> b -> a',
    );
    expect(planner.calls[2]!.messages.at(-1)!.content).toContain(
      '"a" depends on "zzz", which is not an id of this plan',
    );
    expect(solo.model.calls).toHaveLength(2);
    expect(result.cycles[0]!.tasks.map((t) => t.status)).toEqual(['done', 'done']);
  });

  it('retries a failing task twice, then fails it and its dependents, keeping the other work', async () => {
    const flaky = worker('flaky', fail(new Error('e1')), fail(new Error('e2')), fail(new Error('e3')));
    const planner = headModel({
      planner: [{ tasks: [task('base', 'B', 9), task('top', 'T', 5, ['base']), task('side', 'S', 1)] }],
      judge: [complete],
      synthesis: ['partial answer'],
    });
    const steady = steadyWorker('steady', 'side output');
    const events: SwarmEvent[] = [];
    const result = await new PlannerWorkerSwarm({
      planner,
      workers: [flaky.agent, steady.agent],
    }).run('goal', { onEvent: (e) => events.push(e) });

    expect(flaky.model.calls).toHaveLength(3);
    expect(result.cycles[0]!.tasks).toEqual([
      {
        id: 'base',
        task: 'B',
        priority: 9,
        dependsOn: [],
        worker: 'flaky',
        status: 'failed',
        error: 'e3',
        attempts: 3,
      },
      {
        id: 'top',
        task: 'T',
        priority: 5,
        dependsOn: ['base'],
        status: 'failed',
        error: 'not run: it depends on task "base", which failed',
        attempts: 0,
      },
      {
        id: 'side',
        task: 'S',
        priority: 1,
        dependsOn: [],
        worker: 'steady',
        status: 'done',
        output: 'side output',
        attempts: 1,
      },
    ]);
    expect(seen(planner.calls.find((c) => c.metadata?.purpose === 'synthesis'))).toContain(
      'Task base: B\n\nFAILED after 3 attempt(s): e3',
    );
    expect(events.filter((e) => e.type === 'planner.task.start').map((e) => `${e.id}#${e.attempt}`)).toEqual([
      'base#1',
      'side#1',
      'base#2',
      'base#3',
    ]);
  });

  it('cancels a task that runs past its timeout, and the run goes on', async () => {
    let signal: AbortSignal | undefined;
    const slow = worker(
      'slow',
      respond((request) => {
        signal = request.signal;
        return new Promise(() => {});
      }),
    );
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'think forever', 5)] }],
      judge: [complete],
      synthesis: ['gave up on t1'],
    });
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const result = await new PlannerWorkerSwarm({
      planner,
      workers: [slow.agent],
      taskTimeoutMs: 20,
      maxRetries: 0,
    }).run('goal');

    expect(signal?.aborted).toBe(true);
    expect(result.cycles[0]!.tasks[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'task t1 took longer than 20 ms and was cancelled.',
    });
    expect(result.output).toBe('gave up on t1');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(
      timersBefore,
    );
  });

  it('clears the time limit of a task that finishes in time', async () => {
    const solo = steadyWorker('solo');
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'quick', 5)] }],
      judge: [complete],
      synthesis: ['done'],
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    await new PlannerWorkerSwarm({ planner, workers: [solo.agent], taskTimeoutMs: 600_000 }).run('goal');
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('has a separate judge give the verdict when one is given', async () => {
    const solo = steadyWorker('solo');
    const planner = headModel({ planner: [{ tasks: [task('t1', 'work', 5)] }], synthesis: ['done'] });
    const judge = headModel({ judge: [complete] });
    const result = await new PlannerWorkerSwarm({ planner, judge, workers: [solo.agent] }).run('goal');
    expect(judge.calls.map((c) => c.metadata?.purpose)).toEqual(['judge']);
    expect(planner.calls.map((c) => c.metadata?.purpose)).toEqual(['planner', 'synthesis']);
    expect(result.cycles[0]!.verdict).toEqual(complete);
  });

  it('times out a member that ignores its signal, and the run goes on', async () => {
    class Deaf extends BaseTopology {
      readonly type = 'Deaf';
      readonly name = 'deaf';
      run(): Promise<TopologyResult> {
        return new Promise(() => {});
      }
    }
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'never answers', 5)] }],
      judge: [complete],
      synthesis: ['gave up on t1'],
    });
    const result = await new PlannerWorkerSwarm({
      planner,
      workers: [new Deaf()],
      taskTimeoutMs: 20,
      maxRetries: 0,
    }).run('goal');

    expect(result.cycles[0]!.tasks[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/took longer than 20 ms/),
    });
    expect(result.output).toBe('gave up on t1');
  });

  it("runs a timed task's calls in the run itself: its events carry the run's id, not a sub-run's", async () => {
    const solo = steadyWorker('solo');
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'work', 5)] }],
      judge: [complete],
      synthesis: ['done'],
    });
    const events: SwarmEvent[] = [];
    await new PlannerWorkerSwarm({ planner, workers: [solo.agent] }).run('goal', {
      onEvent: (e) => events.push(e),
    });
    const runId = events.find((e) => e.type === 'run.start')!.runId;
    const agentEvents = events.filter((e) => e.agent === 'solo' && e.type.startsWith('agent.'));
    expect(agentEvents.length).toBeGreaterThan(0);
    expect(agentEvents.every((e) => e.runId === runId && e.parentRunId === undefined)).toBe(true);
  });

  it("cancels every task when the run's own signal aborts, leaving no timer behind", async () => {
    const gate = new Gate();
    const hanging = worker(
      'hanging',
      respond(async () => {
        await gate.wait();
        return new Promise<string>(() => {});
      }),
    );
    const planner = headModel({ planner: [{ tasks: [task('t1', 'x', 5)] }] });
    const controller = new AbortController();
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const running = new PlannerWorkerSwarm({ planner, workers: [hanging.agent] }).run('goal', {
      signal: controller.signal,
    });
    await gate.until(1);
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(
      timersBefore,
    );
  });

  it('runs another cycle on the judge’s gaps, and stops when the judge says complete', async () => {
    const solo = steadyWorker('solo', 'some work');
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'draft', 5)] }, { tasks: [task('t2', 'add sources', 5)] }],
      judge: [{ isComplete: false, quality: 4, gaps: ['no sources'], followUp: ['add sources'] }, complete],
      synthesis: ['final'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [solo.agent], maxLoops: 5 }).run(
      'Write an essay.',
    );

    expect(result.cycles.map((c) => c.verdict?.isComplete)).toEqual([false, true]);
    expect(seen(planner.calls[2])).toContain(
      'The judge found gaps: no sources\nSuggested follow-up: add sources',
    );
    expect(seen(planner.calls[2])).toContain('user(solo): Task t1: draft\n\nsome work');
    expect(planner.calls.map((c) => c.metadata?.purpose)).toEqual([
      'planner',
      'judge',
      'planner',
      'judge',
      'synthesis',
    ]);
  });

  it('stops at maxLoops even when the judge is never satisfied', async () => {
    const solo = steadyWorker('solo');
    const unhappy = { isComplete: false, quality: 2, gaps: ['more'], followUp: ['more'] };
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'x', 5)] }, { tasks: [task('t2', 'y', 5)] }],
      judge: [unhappy, unhappy],
      synthesis: ['best effort'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [solo.agent], maxLoops: 2 }).run('goal');
    expect(result.cycles).toHaveLength(2);
    expect(result.output).toBe('best effort');
  });

  it('on a budget stop answers from the finished tasks and marks the result interrupted', async () => {
    const solo = steadyWorker('solo', 'solo output');
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'x', 5)] }],
      judge: [complete],
      synthesis: ['never'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [solo.agent] }).run('goal', {
      budget: { maxCalls: 2 },
    });
    expect(result).toMatchObject({
      interrupted: true,
      interruptionReason: 'budget:calls',
      output: '[solo]\nsolo output',
    });
  });

  it('puts a whole topology in the pool, run nested in the same run', async () => {
    const analyst = steadyWorker('analyst', 'analyst view');
    const inner = headModel({
      questions: [{ questions: { analyst: 'What do you see?' } }],
      synthesis: ['panel view'],
    });
    const panel = new HeavySwarm({
      name: 'panel',
      agents: [analyst.agent],
      questioner: inner,
      synthesizer: inner,
    });
    const planner = headModel({
      planner: [{ tasks: [task('t1', 'Assess it.', 5)] }],
      judge: [complete],
      synthesis: ['done'],
    });
    const result = await new PlannerWorkerSwarm({ planner, workers: [panel] }).run('goal');

    expect(result.cycles[0]!.tasks[0]).toMatchObject({
      worker: 'panel',
      status: 'done',
      output: 'panel view',
    });
    expect(inner.calls[0]!.messages[0]!.content).toContain('Your task (t1): Assess it.');
    expect(result.llmCalls).toBe(planner.calls.length + inner.calls.length + analyst.model.calls.length);
  });

  it('rejects bad options at construction', () => {
    const planner = new ScriptedModel();
    const workers = [steadyWorker('w').agent];
    expect(() => new PlannerWorkerSwarm({ planner, workers: [] })).toThrow(ConfigError);
    expect(() => new PlannerWorkerSwarm({ planner, workers, taskTimeoutMs: 0 })).toThrow(
      'PlannerWorkerSwarm: taskTimeoutMs must be a positive number of milliseconds, at most 2147483647 (got 0).',
    );
    expect(() => new PlannerWorkerSwarm({ planner, workers, maxRetries: 1.5 })).toThrow(
      /maxRetries must be an integer >= 0/,
    );
  });
});
