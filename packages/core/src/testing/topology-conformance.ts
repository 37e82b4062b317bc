import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { Topology, TopologyResult } from '../composition/topology.js';
import type { SwarmEvent } from '../contracts/events.js';
import type {
  ContentPart,
  Model,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
} from '../contracts/model.js';
import type { Approvals } from '../kernel/approval.js';
import {
  AbortError,
  type GuardrailTripwireError,
  isPause,
  type RunPausedError,
  SwarmError,
} from '../kernel/errors.js';
import type { GuardrailOptions } from '../kernel/guardrail.js';
import { memoryJournal } from '../kernel/journal.js';
import { nodeBuiltin } from '../kernel/node-builtin.js';
import { RunContext } from '../kernel/run-context.js';
import { asTool } from '../primitives/as-tool.js';
import { type Tool, tool } from '../primitives/tool.js';
import { autoModel, CountingModel } from './auto-model.js';
import { nextTurn } from './next-turn.js';

/** What the suite hands `create` besides the model. */
export interface ConformanceCreateOptions {
  /**
   * Tools for the topology's members: give them to at least one member that runs (an Agent that
   * runs its tool loop). The pausing checks put a tool that needs approval here.
   */
  tools: Tool[];
  /**
   * Guardrails to give the topology's constructor (spread them into its options): the constructor
   * guardrails check proves they trip. A `create` that never reads them skips that check.
   */
  guardrails: GuardrailOptions;
}

/** What `topologyConformance` needs: how to build the topology over a model, and a model for it. */
export interface TopologyConformanceOptions<R extends TopologyResult = TopologyResult> {
  /** Builds a fresh topology whose every model call goes to `model`, its members given `tools`. */
  create: (model: Model, options: ConformanceCreateOptions) => Topology<R>;
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
  /**
   * Why no member of this topology can be given tools (it runs no Agent tool loop, only structured
   * calls): the pausing check is then skipped and names this reason. Without it, a topology whose
   * run never reaches the suite's approval tool fails that check.
   */
  noTools?: string;
  /**
   * Why this topology's answer is not the prose of a final member (it is built from structured
   * calls, or from several members): the empty-answer checks are then skipped and name this reason.
   */
  noFinalAnswer?: string;
  /**
   * Why this topology's members never see the run's `attachments` (no member reads the task): the
   * attachments check is then skipped and names this reason.
   */
  noAttachments?: string;
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
 * The checks every topology passes (DESIGN 3.6, 3.7), as plain async functions so any test runner
 * can run them (`topologyConformanceTests` in `@swarm/core/testing/vitest` wraps them for vitest):
 * run and stream agree, also when streamed answers restart after a connection reset; the trace opens with `run.start` and closes with `run.end`; usage and calls
 * equal what the model saw; an abort rejects with `AbortError` promptly and leaves no listener or
 * timer; a `maxCalls` budget is never exceeded; a parent's budget and trace cover a nested run; a
 * run cut short resumes from its journal without repeating a finished call; a member's tool that
 * needs approval pauses the run (`run.paused`) and approving resumes it to the same answer; a final
 * answer that comes back empty is asked for once more, and one that stays empty fails the run
 * (`NO_ANSWER`) or is marked, never passed off as success; an input guardrail that trips cancels
 * the first call, and an output guardrail sees the output.
 */
export function topologyConformance<R extends TopologyResult>(
  options: TopologyConformanceOptions<R>,
): ConformanceCheck[] {
  const task = options.task ?? 'What are three uses of a paperclip?';
  const freshModel = () => new CountingModel(options.model?.() ?? autoModel());
  const abortWithinTurns = options.abortWithinTurns ?? 100;
  const create = (model: Model, tools: Tool[] = [], guardrails: GuardrailOptions = {}) =>
    options.create(model, { tools, guardrails });

  // Builds a topology with `guardrails` for its constructor; `read` says whether `create` took them.
  const createGuarded = (model: Model, guardrails: GuardrailOptions) => {
    const seen = { read: false };
    const watched: GuardrailOptions = {
      get inputGuardrails() {
        seen.read = true;
        return guardrails.inputGuardrails;
      },
      get outputGuardrails() {
        seen.read = true;
        return guardrails.outputGuardrails;
      },
    };
    return { topology: create(model, [], watched), read: () => seen.read };
  };

  const fullRun = async () => {
    const model = freshModel();
    const events: SwarmEvent[] = [];
    const result = await create(model).run(task, { onEvent: (e) => events.push(e) });
    return { model, events, result };
  };

  // An ordinary run, and the index of its last prose answer (a call answered with text and no
  // tool call): the final member's answer, which the empty-answer checks blank.
  const finalAnswerRun = async () => {
    const recorder = new BlankingModel(options.model?.() ?? autoModel(), -1, 0);
    await create(recorder).run(task);
    const last = recorder.lastProse;
    expect(
      last >= 0,
      "the run made no prose call: set noFinalAnswer with the reason its answer is not a final member's text",
    );
    return { last };
  };

  return [
    {
      name: 'run and stream give the same result',
      run: async () => {
        const ran = await create(freshModel()).run(task);
        // Every streamed answer breaks after its first piece and is made again (a connection reset
        // the provider retried): the stream must still end with run()'s result.
        const stream = create(new RestartingModel(freshModel())).stream(task);
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
      name: "usage and llmCalls include the runs a member's tool nests in the run",
      run: async () => {
        if (options.noTools !== undefined) {
          console.info(`nested totals check skipped: ${options.noTools}`);
          return;
        }
        const model = new CountingModel(
          new ToolAskingModel(nestedToolName, options.model?.() ?? autoModel()),
        );
        const nested = { count: 0 };
        const result = await create(model, [nestedTool(model, nested)]).run(task);
        expect(
          nested.count > 0,
          'no member ran the tool given to create: give options.tools to at least one member that runs (or set noTools with the reason it cannot take tools)',
        );
        expect(
          result.llmCalls === model.calls,
          `result.llmCalls is ${result.llmCalls}; the model saw ${model.calls} calls, ${nested.count} of them in runs nested in a tool`,
        );
        expectEqual(
          result.usage,
          model.usage,
          'result.usage differs from the usage the model reported, nested runs included',
        );
      },
    },
    {
      name: 'an input guardrail that trips cancels the first model call and ends the run with GuardrailTripwireError',
      run: async () => {
        const hanging = new HangingModel();
        const events: SwarmEvent[] = [];
        const controller = new AbortController();
        let tripped = false;
        const running = create(hanging)
          .run(task, {
            signal: controller.signal,
            onEvent: (e) => events.push(e),
            inputGuardrails: [
              {
                name: 'conformance-input',
                check: async () => {
                  await hanging.started;
                  tripped = true;
                  return { tripwire: true, info: 'tripped' };
                },
              },
            ],
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        let settled = false;
        void running.then(() => {
          settled = true;
        });
        await Promise.race([hanging.started, running]);
        for (let turns = 0; !settled && turns < abortWithinTurns; turns++) await nextTurn();
        if (!settled) controller.abort();
        const outcome = await running;
        expect(
          tripped && settled,
          'the run went on after its input guardrail tripped (or never ran it): build the run with runTopology (or runTopologyBatch)',
        );
        expect(
          SwarmError.isInstance(outcome) &&
            outcome.code === 'GUARDRAIL_TRIPWIRE' &&
            (outcome as GuardrailTripwireError).guardrail === 'conformance-input',
          `the run ended with ${describe(outcome)}, not GuardrailTripwireError naming the guardrail`,
        );
        expect(
          hanging.calls === 1,
          `the model saw ${hanging.calls} calls; only the first may start beside the guardrail`,
        );
        expect(
          events.some((e) => e.type === 'guardrail.trip' && e.guardrail === 'conformance-input'),
          'the trace has no guardrail.trip event',
        );
        expect(
          events.at(-1)?.type === 'run.error',
          `the trace ends with ${events.at(-1)?.type}, not run.error`,
        );
      },
    },
    {
      name: "an output guardrail checks the run's output and can end the run",
      run: async () => {
        const { result: full } = await fullRun();
        const seen: string[] = [];
        const outcome = await create(freshModel())
          .run(task, {
            outputGuardrails: [
              {
                name: 'conformance-output',
                check: (value) => {
                  seen.push(value);
                  return { tripwire: true };
                },
              },
            ],
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(
          SwarmError.isInstance(outcome) && outcome.code === 'GUARDRAIL_TRIPWIRE',
          `the run ended with ${describe(outcome)}, not GuardrailTripwireError`,
        );
        expectEqual(seen, [full.output], 'the output guardrail did not see the output once');
      },
    },
    {
      name: "guardrails given to the topology's constructor trip on its input and on its output",
      run: async () => {
        const input = createGuarded(freshModel(), {
          inputGuardrails: [{ name: 'conformance-constructor-input', check: () => ({ tripwire: true }) }],
        });
        if (!input.read()) {
          console.info(
            "constructor guardrails check skipped: create does not give options.guardrails to the topology's constructor",
          );
          return;
        }
        const inputOutcome = await input.topology.run(task).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(
          SwarmError.isInstance(inputOutcome) &&
            inputOutcome.code === 'GUARDRAIL_TRIPWIRE' &&
            (inputOutcome as GuardrailTripwireError).guardrail === 'conformance-constructor-input',
          `an input guardrail given to the constructor tripped, yet the run ended with ${describe(inputOutcome)}: call this.withGuardrails(options) in the constructor`,
        );

        const { result: full } = await fullRun();
        const seen: string[] = [];
        const output = createGuarded(freshModel(), {
          outputGuardrails: [
            {
              name: 'conformance-constructor-output',
              check: (value) => {
                seen.push(value);
                return { tripwire: true };
              },
            },
          ],
        });
        const outputOutcome = await output.topology.run(task).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(
          SwarmError.isInstance(outputOutcome) &&
            outputOutcome.code === 'GUARDRAIL_TRIPWIRE' &&
            (outputOutcome as GuardrailTripwireError).guardrail === 'conformance-constructor-output',
          `an output guardrail given to the constructor tripped, yet the run ended with ${describe(outputOutcome)}`,
        );
        expectEqual(seen, [full.output], 'the constructor output guardrail did not see the output once');
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
        const running = create(hanging).run(task, { signal: controller.signal });
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
          const outcome = await create(model)
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
        const topology = create(model);
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
        await create(limited)
          .run(task, { parent: tight })
          .catch(() => undefined);
        expect(limited.calls <= 1, `a parent's budget of 1 call let the nested run make ${limited.calls}`);
      },
    },
    {
      name: 'a run cut short resumes from its journal without making its finished calls again',
      run: async () => {
        const { model: full, result: fullResult } = await fullRun();
        const journal = memoryJournal();
        const runId = 'conformance-resume';
        const cutAt = Math.floor(full.calls / 2);
        const controller = new AbortController();
        const cut = new CountingModel(new CuttingModel(options.model?.() ?? autoModel(), cutAt, controller));
        const first = await create(cut)
          .run(task, { journal, runId, signal: controller.signal })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(
          SwarmError.isInstance(first) && first.code === 'ABORTED',
          `the run cut at call ${cutAt + 1} ended with ${describe(first)}, not AbortError`,
        );
        const journaled = (await journal.read(runId)).filter((e) => e.type === 'model').length;
        const model = freshModel();
        const resumed = await create(model).run(task, { journal, runId });
        expectEqual(
          summary(resumed),
          summary(fullResult),
          'the resumed run differs from an uninterrupted run',
        );
        expect(
          model.calls === full.calls - journaled,
          `the journal held ${journaled} of ${full.calls} calls, yet the resumed run made ${model.calls} calls (finished calls made again, or calls skipped)`,
        );
        expect(
          resumed.replayedCalls === journaled && resumed.liveCalls === model.calls,
          `the resumed result says replayedCalls ${resumed.replayedCalls}, liveCalls ${resumed.liveCalls}; the journal answered ${journaled} and the model ${model.calls} (build results with runTopology, or add runTotals(context))`,
        );
      },
    },
    {
      name: 'a final answer that comes back empty once is asked for again, and the run answers',
      run: async () => {
        if (options.noFinalAnswer !== undefined) {
          console.info(`empty-answer check skipped: ${options.noFinalAnswer}`);
          return;
        }
        const { last } = await finalAnswerRun();
        const model = new CountingModel(new BlankingModel(options.model?.() ?? autoModel(), last, 1));
        const outcome = await create(model)
          .run(task)
          .then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
        expect(
          'result' in outcome,
          `the final answer (call ${last + 1}) came back empty once and the run failed with ${'error' in outcome ? describe(outcome.error) : ''} instead of asking again`,
        );
        expect(
          outcome.result.output.trim() !== '' && outcome.result.interrupted !== true,
          'after one empty final answer the run did not answer: the empty answer was not asked for again',
        );
      },
    },
    {
      name: 'a final answer that stays empty fails the run (NO_ANSWER) or is marked, never passed off as success',
      run: async () => {
        if (options.noFinalAnswer !== undefined) return;
        const { last } = await finalAnswerRun();
        const model = new CountingModel(new BlankingModel(options.model?.() ?? autoModel(), last, Infinity));
        const outcome = await create(model)
          .run(task)
          .then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
        if ('error' in outcome) {
          expect(
            SwarmError.isInstance(outcome.error) && outcome.error.code === 'NO_ANSWER',
            `a final member that answers empty ended the run with ${describe(outcome.error)}, not a NO_ANSWER error`,
          );
        } else {
          expect(
            outcome.result.output.trim() !== '' || outcome.result.interrupted === true,
            'a final member answered empty twice and the run resolved with an empty output, not marked interrupted',
          );
        }
      },
    },
    {
      name: 'a member whose tool needs approval pauses the whole run, and approving resumes it to the same answer',
      run: async () => {
        if (options.noTools !== undefined) {
          console.info(`pausing check skipped: ${options.noTools}`);
          return;
        }
        const pausing = () =>
          new CountingModel(new ToolAskingModel(approvalToolName, options.model?.() ?? autoModel()));
        const unasked = { count: 0 };
        const baselineModel = pausing();
        const baseline = await create(baselineModel, [approvalTool(false, unasked)]).run(task);
        expect(
          unasked.count > 0,
          'no member ran the tool given to create: give options.tools to at least one member that runs (or set noTools with the reason it cannot take tools)',
        );
        const journal = memoryJournal();
        const runId = 'conformance-pause';
        const executed = { count: 0 };
        let approvals: Approvals | undefined;
        let calls = 0;
        let pauses = 0;
        let result: TopologyResult | undefined;
        while (result === undefined) {
          expect(pauses <= unasked.count, `the run still paused after ${pauses} rounds of approvals`);
          const model = pausing();
          const events: SwarmEvent[] = [];
          const outcome = await create(model, [approvalTool(true, executed)])
            .run(task, { journal, runId, onEvent: (e) => events.push(e), ...(approvals && { approvals }) })
            .then(
              (value) => ({ value }),
              (error: unknown) => ({ error }),
            );
          calls += model.calls;
          if ('value' in outcome) {
            result = outcome.value;
            break;
          }
          expect(
            isPause(outcome.error),
            `a run that reached a tool needing approval ended with ${describe(outcome.error)}, not RunPausedError`,
          );
          const pause = outcome.error as RunPausedError;
          pauses += 1;
          expect(pause.pending.length > 0, 'RunPausedError.pending is empty');
          expect(
            pause.liveCalls === model.calls && pause.llmCalls === pause.replayedCalls + pause.liveCalls,
            `RunPausedError says llmCalls ${pause.llmCalls} (live ${pause.liveCalls}); the model saw ${model.calls} calls before the pause (run it through runTopology, which ends a pause with the run's totals)`,
          );
          expect(
            pause.pending.every((p) => p.tool === approvalToolName && p.runId === runId),
            `RunPausedError.pending does not name the tool and run id: ${JSON.stringify(pause.pending)}`,
          );
          expectEqual(
            JSON.parse(JSON.stringify(pause.pending)),
            pause.pending,
            'the pending calls do not survive JSON',
          );
          const own = events.filter((e) => e.runId === events[0]?.runId);
          expect(
            own.at(-1)?.type === 'run.paused',
            `the paused run's last event is ${own.at(-1)?.type}, not run.paused`,
          );
          expect(events.at(-1) === own.at(-1), 'events arrived after run.paused');
          expect(
            !own.some((e) => e.type === 'run.error'),
            'the paused run emitted run.error: a pause is not a failure',
          );
          approvals = Object.fromEntries(pause.pending.map((p) => [p.id, { approved: true }]));
        }
        expect(pauses > 0, 'a member called the tool that needs approval, yet the run never paused');
        expectEqual(
          summary(result),
          summary(baseline),
          'the approved run differs from a run whose tool needed no approval',
        );
        expect(
          executed.count === unasked.count,
          `the approved tool ran ${executed.count} times; without approval it runs ${unasked.count} times`,
        );
        expect(
          calls === baselineModel.calls,
          `the paused and resumed runs made ${calls} model calls together; one run without pauses makes ${baselineModel.calls} (finished calls were made again)`,
        );
      },
    },
    {
      name: "the run's attachments reach the members that read the task",
      run: async () => {
        if (options.noAttachments !== undefined) {
          console.info(`attachments check skipped: ${options.noAttachments}`);
          return;
        }
        const image: ContentPart = { type: 'image', url: 'https://example.com/conformance.png' };
        const seen = { count: 0 };
        const model = new CountingModel(new AttachmentSpy(options.model?.() ?? autoModel(), image, seen));
        await create(model).run(task, { attachments: [image] });
        expect(
          seen.count > 0,
          `none of the ${model.calls} model calls carried the run's attachments: build each member's first turn from the task with agent.run(text, { context }) (core adds them), or taskMessage(task, context.attachments) for typed turns (or set noAttachments with the reason)`,
        );
      },
    },
  ];
}

/** The tool the pausing check gives the members: it asks a person, then says what it approved. */
const approvalToolName = 'conformance_approval';

function approvalTool(needsApproval: boolean, executed: { count: number }): Tool {
  return tool({
    name: approvalToolName,
    description: 'Asks a person to approve the next step before going on.',
    parameters: z.object({ step: z.string() }),
    needsApproval,
    execute: ({ step }) => {
      executed.count += 1;
      return `approved: ${step}`;
    },
  });
}

/** The tool the nested totals check gives the members: an agent on the suite's model, as a tool. */
const nestedToolName = 'conformance_nested';

function nestedTool(model: Model, called: { count: number }): Tool {
  const inner = asTool(new Agent({ name: 'conformance-nested', model }), { name: nestedToolName });
  return tool({
    name: inner.name,
    description: inner.description,
    parameters: inner.parameters,
    journaled: false,
    execute: (args, ctx) => {
      called.count += 1;
      return inner.execute(args, ctx);
    },
  });
}

/**
 * The suite's model for the checks that need a member to call one tool (`toolName`): where that
 * tool is offered, not yet called in this conversation, and no other function is forced, it calls
 * the tool; otherwise `model` answers.
 */
class ToolAskingModel implements Model {
  readonly id: string;
  readonly #model: Model;
  readonly #tool: string;

  constructor(tool: string, model: Model) {
    this.#tool = tool;
    this.#model = model;
    this.id = model.id;
  }

  generate(request: ModelRequest): Promise<ModelResponse> {
    const choice = request.toolChoice;
    const name = this.#tool;
    const asks =
      request.tools?.some((t) => t.name === name) &&
      choice !== 'none' &&
      !(typeof choice === 'object' && choice.name !== name) &&
      !request.messages.some((m) => m.toolCalls?.some((c) => c.name === name));
    if (!asks) return this.#model.generate(request);
    const agent = request.metadata?.agent ?? 'agent';
    return Promise.resolve({
      text: '',
      toolCalls: [
        {
          id: `${name}-${agent}-${request.messages.length}`,
          name,
          arguments:
            name === approvalToolName
              ? { step: `the next step of ${agent}` }
              : { task: `a part of ${agent}'s work` },
        },
      ],
      usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 0, reasoningTokens: 0, totalTokens: 15 },
      finishReason: 'tool-calls',
      modelId: this.id,
    });
  }
}

/**
 * A model that answers the first `answered` calls, then holds every later call and aborts the run
 * a few event-loop turns later (a process dying mid-run, with the answers it had journaled).
 */
class CuttingModel implements Model {
  readonly id: string;
  readonly #model: Model;
  readonly #answered: number;
  readonly #controller: AbortController;
  #calls = 0;

  constructor(model: Model, answered: number, controller: AbortController) {
    this.#model = model;
    this.id = model.id;
    this.#answered = answered;
    this.#controller = controller;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    if (this.#calls++ < this.#answered) return this.#model.generate(request);
    const { signal } = request;
    // Calls in flight beside this one get a few turns to answer (and be journaled) first.
    void (async () => {
      for (let turn = 0; turn < 20; turn++) await nextTurn();
      this.#controller.abort();
    })();
    return new Promise((_, reject) => {
      const onAbort = () => reject(new AbortError(undefined, { cause: signal?.reason }));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * A model that answers `count` prose calls from call index `from` on with empty text (the rest as
 * `model` does), and records the index of the last prose answer it gave.
 */
class BlankingModel implements Model {
  readonly id: string;
  lastProse = -1;
  readonly #model: Model;
  readonly #from: number;
  #left: number;
  #calls = 0;

  constructor(model: Model, from: number, count: number) {
    this.#model = model;
    this.id = model.id;
    this.#from = from;
    this.#left = count;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const index = this.#calls++;
    const response = await this.#model.generate(request);
    if (response.toolCalls.length > 0 || response.text.trim() === '') return response;
    this.lastProse = index;
    if (index < this.#from || this.#left <= 0) return response;
    this.#left -= 1;
    return { ...response, text: '' };
  }
}

/**
 * A streaming model over `model`: each streamed answer yields its first piece, then `restart`
 * (the connection broke and the provider made the call again), then the whole answer.
 */
class RestartingModel implements Model {
  readonly id: string;
  readonly #model: Model;

  constructor(model: Model) {
    this.#model = model;
    this.id = model.id;
  }

  generate(request: ModelRequest): Promise<ModelResponse> {
    return this.#model.generate(request);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.#model.generate(request);
    const pieces = response.text.split(/(?<= )/);
    if (pieces.length > 1) {
      yield { type: 'text-delta', delta: `${pieces[0]!}(cut) ` };
      yield { type: 'restart' };
    }
    for (const piece of pieces) if (piece !== '') yield { type: 'text-delta', delta: piece };
    for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
    yield { type: 'finish', response };
  }
}

/** A model whose calls never answer until their signal aborts: for abort checks. */
// Counts the calls whose messages carry `part` (the same object, as the run was given it).
class AttachmentSpy implements Model {
  readonly id: string;
  constructor(
    readonly model: Model,
    readonly part: ContentPart,
    readonly seen: { count: number },
  ) {
    this.id = model.id;
  }

  generate(request: ModelRequest): Promise<ModelResponse> {
    const carries = request.messages.some(
      (m) => typeof m.content !== 'string' && m.content.some((p) => p === this.part),
    );
    if (carries) this.seen.count += 1;
    return this.model.generate(request);
  }
}

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

function summary(result: TopologyResult | undefined) {
  if (result === undefined) return undefined;
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
