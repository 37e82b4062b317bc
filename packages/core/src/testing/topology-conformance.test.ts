import { describe, expect, it } from 'vitest';
import { Agent, type AgentResult } from '../agent/agent.js';
import { runMember } from '../composition/member.js';
import { BaseTopology, type TopologyResult } from '../composition/topology.js';
import { budgetStop, runTopology } from '../composition/topology-run.js';
import type { Model, Usage } from '../contracts/model.js';
import { nonEmptyAnswer } from '../kernel/empty-answer.js';
import { isAbort, isPause, RunPausedError } from '../kernel/errors.js';
import type { GuardrailOptions } from '../kernel/guardrail.js';
import { RunContext, type RunOptions } from '../kernel/run-context.js';
import { addUsage, emptyUsage } from '../kernel/usage.js';
import type { Tool } from '../primitives/tool.js';
import { autoModel } from './auto-model.js';
import { type ConformanceCheck, ConformanceError, topologyConformance } from './topology-conformance.js';
import { topologyConformanceTests } from './vitest.js';

type Flaw =
  | 'none'
  | 'no-run-end'
  | 'fresh-context'
  | 'ignores-budget'
  | 'swallows-abort'
  | 'slow-abort'
  | 'miscounts'
  | 'ignores-tools'
  | 'pause-as-failure'
  | 'no-journal-totals'
  | 'passes-empty'
  | 'own-totals'
  | 'drops-attachments'
  | 'ignores-constructor-guardrails'
  | 'pause-without-totals';

/** Two agents in turn, then a summary: a correct topology, or one with a single deliberate flaw. */
class Relay extends BaseTopology {
  readonly type = 'Relay';
  readonly name = 'relay';
  readonly #agents: Agent[];
  // What the members' own calls came to (the 'own-totals' flaw reports this as the run's totals).
  readonly #own = { llmCalls: 0, usage: emptyUsage() as Usage };
  constructor(
    model: Model,
    readonly flaw: Flaw = 'none',
    tools: Tool[] = [],
    guardrails: GuardrailOptions = {},
  ) {
    super();
    // Reads the guardrails, as a constructor that takes the option does, and drops them.
    const { inputGuardrails, outputGuardrails } = guardrails;
    if (flaw !== 'ignores-constructor-guardrails') this.withGuardrails({ inputGuardrails, outputGuardrails });
    const given = flaw === 'ignores-tools' ? [] : tools;
    this.#agents = ['first', 'second', 'third'].map((name) => new Agent({ name, model, tools: given }));
  }

  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    if (this.flaw === 'fresh-context')
      return runTopology(this, { task }, { ...options, parent: undefined }, (c) => this.#body(task, c));
    if (this.flaw === 'no-journal-totals') {
      return runTopology(this, { task }, options, (c) => this.#body(task, c)).then(
        ({ replayedCalls: _r, liveCalls: _l, ...rest }) => rest,
      );
    }
    if (this.flaw === 'own-totals') {
      return runTopology(this, { task }, options, (c) => this.#body(task, c)).then((result) => ({
        ...result,
        llmCalls: this.#own.llmCalls,
        usage: this.#own.usage,
      }));
    }
    if (this.flaw === 'no-run-end') {
      const context = new RunContext({ ...options, topology: this.type });
      context.emit({ type: 'run.start' });
      return this.#body(task, context).then((r) => ({
        ...r,
        usage: { ...context.usage },
        llmCalls: context.llmCalls,
      }));
    }
    if (this.flaw === 'pause-without-totals') {
      // Rethrows the pause as a new one, dropping the totals the run put on it.
      return runTopology(this, { task }, options, (c) => this.#body(task, c)).catch((error: unknown) => {
        throw isPause(error) ? new RunPausedError(error.pending) : error;
      });
    }
    return runTopology(this, { task }, options, (context) => this.#body(task, context));
  }

  async #body(task: string, context: RunContext) {
    let text = task;
    for (const agent of this.#agents) {
      try {
        const given = text;
        // The task as another member's named turn, not the user's: the attachments never reach a member.
        const input =
          this.flaw === 'drops-attachments'
            ? [{ role: 'user' as const, name: 'relay', content: given }]
            : given;
        const answer = () => runMember(agent, input, context);
        const final = agent === this.#agents.at(-1) && this.flaw !== 'passes-empty';
        const ran = await (final ? nonEmptyAnswer(agent.name, context, answer) : answer());
        text = ran.output;
        this.#own.llmCalls += (ran.result as AgentResult).ownLlmCalls;
        addUsage(this.#own.usage, (ran.result as AgentResult).ownUsage);
      } catch (error) {
        const reason = budgetStop(error);
        if (reason && this.flaw === 'ignores-budget') {
          text = (await agent.model.generate({ messages: [{ role: 'user', content: text }] })).text;
          continue;
        }
        if (reason) return { output: text, interrupted: true, interruptionReason: reason };
        if (this.flaw === 'swallows-abort') return { output: text };
        // Records the member as failed and goes on: its pause is lost.
        if (this.flaw === 'pause-as-failure' && !isAbort(error)) continue;
        // Waits on a timer before giving up: the abort does not reach what it waits on.
        if (this.flaw === 'slow-abort' && isAbort(error))
          await new Promise((r) => setTimeout(r, 3_000).unref());
        throw error;
      }
    }
    if (this.flaw === 'miscounts') context.llmCalls -= 1;
    return { output: text };
  }
}

const checksFor = (flaw: Flaw): ConformanceCheck[] =>
  topologyConformance({
    create: (model, { tools, guardrails }) => new Relay(model, flaw, tools, guardrails),
  });

async function failures(flaw: Flaw, only?: string): Promise<string[]> {
  const failed: string[] = [];
  for (const check of checksFor(flaw).filter((c) => only === undefined || c.name === only)) {
    try {
      await check.run();
    } catch (error) {
      expect(error).toBeInstanceOf(ConformanceError);
      failed.push(check.name);
    }
  }
  return failed;
}

topologyConformanceTests('a correct topology', {
  create: (model, { tools, guardrails }) => new Relay(model, 'none', tools, guardrails),
});

describe('topologyConformance catches a broken topology', () => {
  it('passes every check for a correct topology', async () => {
    expect(await failures('none')).toEqual([]);
  });

  it('fails a topology whose trace never closes', async () => {
    expect(await failures('no-run-end')).toContain('the trace opens with run.start and closes with run.end');
  });

  it("fails a topology that ignores its parent's run", async () => {
    expect(await failures('fresh-context')).toEqual(["a parent's budget and trace cover the nested run"]);
  });

  it('fails a topology that calls the model past its budget', async () => {
    expect(await failures('ignores-budget')).toContain('a maxCalls budget is never exceeded');
  });

  it('fails a topology that swallows an abort', async () => {
    expect(await failures('swallows-abort')).toContain(
      'an abort rejects with AbortError promptly and leaves no listener or timer',
    );
  });

  it('fails a topology that waits on a timer before rejecting an abort', async () => {
    const check = 'an abort rejects with AbortError promptly and leaves no listener or timer';
    expect(await failures('slow-abort', check)).toEqual([check]);
  });

  it('fails a topology whose result miscounts its calls', async () => {
    expect(await failures('miscounts')).toContain('usage and llmCalls equal what the model saw');
  });

  it("fails a topology that builds its own context and so ignores the run's guardrails", async () => {
    const failed = await failures('no-run-end');
    expect(failed).toContain(
      'an input guardrail that trips cancels the first model call and ends the run with GuardrailTripwireError',
    );
    expect(failed).toContain("an output guardrail checks the run's output and can end the run");
  });

  it('fails a topology that takes guardrails in its constructor and never applies them', async () => {
    expect(await failures('ignores-constructor-guardrails')).toEqual([
      "guardrails given to the topology's constructor trip on its input and on its output",
    ]);
  });

  it("fails a topology whose pause does not carry the run's totals", async () => {
    expect(await failures('pause-without-totals')).toEqual([
      'a member whose tool needs approval pauses the whole run, and approving resumes it to the same answer',
    ]);
  });

  it('fails a topology whose totals leave out the runs nested in its members', async () => {
    expect(await failures('own-totals')).toEqual([
      "usage and llmCalls include the runs a member's tool nests in the run",
    ]);
  });

  const pausing =
    'a member whose tool needs approval pauses the whole run, and approving resumes it to the same answer';

  it('fails a topology that does not give its members the tools', async () => {
    expect(await failures('ignores-tools')).toEqual([
      "usage and llmCalls include the runs a member's tool nests in the run",
      pausing,
    ]);
  });

  it("fails a topology that records a member's pause as its failure", async () => {
    expect(await failures('pause-as-failure')).toEqual([pausing]);
  });

  it('fails a topology whose result does not say how many calls were replayed', async () => {
    expect(await failures('no-journal-totals')).toEqual([
      'a run cut short resumes from its journal without making its finished calls again',
    ]);
  });

  it('fails a topology that passes an empty final answer off as success', async () => {
    expect(await failures('passes-empty')).toEqual([
      'a final answer that comes back empty once is asked for again, and the run answers',
      'a final answer that stays empty fails the run (NO_ANSWER) or is marked, never passed off as success',
    ]);
  });

  it("fails a topology whose members never see the run's attachments", async () => {
    expect(await failures('drops-attachments')).toEqual([
      "the run's attachments reach the members that read the task",
    ]);
  });

  it('skips the pausing check, saying why, for a topology that cannot take tools', async () => {
    const checks = topologyConformance({
      create: (model) => new Relay(model, 'ignores-tools'),
      noTools: 'its members only make structured calls',
    });
    for (const check of checks) await check.run();
  });

  it('answers any forced function call from its schema, leaving optional fields out', async () => {
    const model = autoModel();
    const response = await model.generate({
      messages: [{ role: 'user', content: 'vote' }],
      tools: [
        {
          name: 'vote',
          description: '',
          parameters: {
            type: 'object',
            properties: {
              answer: { type: 'string', enum: ['yes', 'no'] },
              confidence: { type: 'number', minimum: 0, maximum: 1 },
              reasons: { type: 'array', items: { type: 'string' } },
              done: { type: 'boolean' },
              note: { type: 'string' },
            },
            required: ['answer', 'confidence', 'reasons', 'done'],
          },
        },
      ],
      toolChoice: { name: 'vote' },
    });
    expect(response.toolCalls[0]?.arguments).toEqual({
      answer: 'yes',
      confidence: 0,
      reasons: ['reasons1'],
      done: false,
    });
  });
});
