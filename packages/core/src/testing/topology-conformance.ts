import { AbortError, SwarmError } from '../errors.js';
import type { SwarmEvent } from '../events.js';
import { nodeBuiltin } from '../node-builtin.js';
import { RunContext } from '../run-context.js';
import type { Topology, TopologyResult } from '../topology.js';
import type { Model, ModelRequest, ModelResponse } from '../types.js';
import { autoModel, CountingModel } from './auto-model.js';
import { nextTurn } from './next-turn.js';

/** What `topologyConformance` needs: how to build the topology over a model, and a model for it. */
export interface TopologyConformanceOptions<R extends TopologyResult = TopologyResult> {
  /** Builds a fresh topology whose every model call goes to `model`. */
  create: (model: Model) => Topology<R>;
  /** A fresh model that can answer one whole run of the topology (default `autoModel()`). */
  model?: () => Model;
  /** The task of every run (default a short question). */
  task?: string;
  /**
   * How many event-loop turns an aborted run may take to reject (default 100). On an idle machine
   * that is well under a millisecond, so a run that waits on no timer and no model rejects within
   * 100 ms; counting turns instead of milliseconds keeps the check exact on a busy CI machine.
   */
  abortWithinTurns?: number;
}

/** One check of the suite: a name that says what it proves, and a function that throws if it does not hold. */
export interface ConformanceCheck {
  name: string;
  run: () => Promise<void>;
}

/** A check failed: the message says which rule of the Topology contract was broken, and how. */
export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceError';
  }
}

/**
 * The checks every topology passes (DESIGN 3.6), as plain async functions so any test runner can
 * run them (`topologyConformanceTests` in `@swarm/core/testing/vitest` wraps them for vitest):
 * run and stream agree; the trace opens with `run.start` and closes with `run.end`; usage and calls
 * equal what the model saw; an abort rejects with `AbortError` promptly and leaves no listener or
 * timer; a `maxCalls` budget is never exceeded; a parent's budget and trace cover a nested run.
 */
export function topologyConformance<R extends TopologyResult>(
  options: TopologyConformanceOptions<R>,
): ConformanceCheck[] {
  const task = options.task ?? 'What are three uses of a paperclip?';
  const freshModel = () => new CountingModel(options.model?.() ?? autoModel());
  const abortWithinTurns = options.abortWithinTurns ?? 100;

  const fullRun = async () => {
    const model = freshModel();
    const events: SwarmEvent[] = [];
    const result = await options.create(model).run(task, { onEvent: (e) => events.push(e) });
    return { model, events, result };
  };

  return [
    {
      name: 'run and stream give the same result',
      run: async () => {
        const ran = await options.create(freshModel()).run(task);
        const stream = options.create(freshModel()).stream(task);
        const types: string[] = [];
        for await (const event of stream) types.push(event.type);
        const streamed = await stream.result;
        expectEqual(summary(streamed), summary(ran), 'stream().result differs from run()');
        expect(types[0] === 'run.start', `stream() yielded ${types[0]} first, not run.start`);
      },
    },
    {
      name: 'the trace opens with run.start and closes with run.end',
      run: async () => {
        const { events, result } = await fullRun();
        const first = events[0];
        const own = events.filter((e) => e.runId === first?.runId);
        const last = own.at(-1);
        expect(first?.type === 'run.start', `the first event is ${first?.type}, not run.start`);
        expect(last?.type === 'run.end', `the run's last event is ${last?.type}, not run.end`);
        expect(events.at(-1) === last, 'events arrived after run.end');
        expect(
          events.every((e) => typeof e.runId === 'string' && typeof e.at === 'string'),
          'an event lacks runId or at',
        );
        expect(
          JSON.stringify(JSON.parse(JSON.stringify(events))) === JSON.stringify(events),
          'the trace does not survive JSON',
        );
        expect(typeof result.output === 'string', 'result.output is not a string');
      },
    },
    {
      name: 'usage and llmCalls equal what the model saw',
      run: async () => {
        const { model, result } = await fullRun();
        expect(model.calls > 0, 'the run made no model call');
        expect(
          result.llmCalls === model.calls,
          `result.llmCalls is ${result.llmCalls}; the model saw ${model.calls} calls`,
        );
        expectEqual(result.usage, model.usage, 'result.usage differs from the usage the model reported');
      },
    },
    {
      name: 'an abort rejects with AbortError promptly and leaves no listener or timer',
      run: async () => {
        // Counting a signal's listeners and the live timers takes Node's own introspection.
        const { getEventListeners } = nodeBuiltin<typeof import('node:events')>(
          'node:events',
          "topologyConformance's abort check",
          'run the conformance checks under Node.js.',
        );
        const hanging = new HangingModel();
        const controller = new AbortController();
        const timersBefore = activeTimers();
        const running = options.create(hanging).run(task, { signal: controller.signal });
        const outcome = running.then(
          () => undefined,
          (error: unknown) => error,
        );
        await Promise.race([hanging.started, outcome]);
        expect(hanging.calls > 0, 'the run ended before its first model call');
        let settled = false;
        void outcome.then(() => {
          settled = true;
        });
        controller.abort();
        let turns = 0;
        while (!settled && turns < abortWithinTurns) {
          await nextTurn();
          turns += 1;
        }
        expect(
          settled,
          `the aborted run had not rejected after ${abortWithinTurns} event-loop turns: it waits on something the abort does not reach`,
        );
        const error = await outcome;
        expect(
          SwarmError.isInstance(error) && error.code === 'ABORTED',
          `the aborted run ended with ${describe(error)}, not AbortError`,
        );
        await nextTurn();
        const listeners = getEventListeners(controller.signal, 'abort').length;
        expect(listeners === 0, `${listeners} abort listener(s) left on the caller's signal`);
        const timersAfter = activeTimers();
        expect(timersAfter <= timersBefore, `${timersAfter - timersBefore} timer(s) left behind`);
      },
    },
    {
      name: 'a maxCalls budget is never exceeded',
      run: async () => {
        const { model: full } = await fullRun();
        const budgets = [...new Set([0, 1, Math.floor(full.calls / 2), full.calls - 1])].filter(
          (b) => b >= 0 && b < full.calls,
        );
        for (const maxCalls of budgets) {
          const model = freshModel();
          const outcome = await options
            .create(model)
            .run(task, { budget: { maxCalls } })
            .then(
              (result) => ({ result }),
              (error: unknown) => ({ error }),
            );
          expect(model.calls <= maxCalls, `budget maxCalls ${maxCalls}: the model saw ${model.calls} calls`);
          if ('error' in outcome) {
            expect(
              SwarmError.isInstance(outcome.error) && outcome.error.code === 'BUDGET_EXCEEDED',
              `budget maxCalls ${maxCalls}: the run failed with ${describe(outcome.error)}, not BudgetExceededError`,
            );
          } else {
            expect(
              outcome.result.interrupted === true && outcome.result.interruptionReason === 'budget:calls',
              `budget maxCalls ${maxCalls}: a full run takes ${full.calls} calls, yet the result is not marked interrupted by budget:calls`,
            );
          }
        }
      },
    },
    {
      name: "a parent's budget and trace cover the nested run",
      run: async () => {
        const events: SwarmEvent[] = [];
        const parent = new RunContext({ topology: 'Parent', onEvent: (e) => events.push(e) });
        const model = freshModel();
        const topology = options.create(model);
        const result = await topology.run(task, { parent });
        expect(
          parent.llmCalls === model.calls,
          `the parent counted ${parent.llmCalls} calls; the model saw ${model.calls}`,
        );
        expect(
          result.llmCalls === model.calls,
          `the nested result counts ${result.llmCalls} calls; the model saw ${model.calls}`,
        );
        expectEqual(parent.usage, model.usage, "the parent's usage differs from the nested run's");
        const start = events.find((e) => e.type === 'run.start');
        expect(start?.parentRunId === parent.runId, 'the nested run.start does not carry the parentRunId');
        expect(
          Array.isArray(start?.path) && start.path[0] === 'Parent' && start.path.at(-1) === topology.type,
          `the nested run.start has path ${JSON.stringify(start?.path)}, not ["Parent", …, "${topology.type}"]`,
        );
        expect(
          events.every((e) => e.parentRunId !== undefined),
          "an event of the nested run reached the parent's listener without parentRunId",
        );
        expect(events.at(-1)?.type === 'run.end', 'the nested trace does not end with run.end');

        const tight = new RunContext({ budget: { maxCalls: 1 } });
        const limited = freshModel();
        await options
          .create(limited)
          .run(task, { parent: tight })
          .catch(() => undefined);
        expect(limited.calls <= 1, `a parent's budget of 1 call let the nested run make ${limited.calls}`);
      },
    },
  ];
}

/** A model whose calls never answer until their signal aborts: for abort checks. */
class HangingModel implements Model {
  readonly id = 'hanging';
  calls = 0;
  #started!: () => void;
  readonly started = new Promise<void>((resolve) => {
    this.#started = resolve;
  });

  generate(request: ModelRequest): Promise<ModelResponse> {
    this.calls += 1;
    this.#started();
    const { signal } = request;
    return new Promise((_, reject) => {
      if (!signal) return;
      const onAbort = () => reject(new AbortError(undefined, { cause: signal.reason }));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

function summary(result: TopologyResult) {
  return {
    output: result.output,
    llmCalls: result.llmCalls,
    usage: result.usage,
    interrupted: result.interrupted ?? false,
  };
}

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

function expectEqual(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new ConformanceError(`${message}: got ${a}, expected ${b}`);
}

function describe(error: unknown): string {
  if (error === undefined) return 'success';
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
