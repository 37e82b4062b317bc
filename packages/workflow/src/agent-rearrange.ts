import {
  BaseTopology,
  type BudgetReason,
  budgetStop,
  ConfigError,
  concurrencyOption,
  interruptionFields,
  isAbort,
  isPause,
  Limiter,
  type Member,
  mapSettled,
  type RunContext,
  type RunOptions,
  raceAbort,
  runTopology,
  settledStop,
  type TopologyResult,
  throwIfAborted,
  turnsAsText,
  validateMembers,
} from '@swarm/core';
import { explainFlow } from './explain-flow.js';
import { type FlowItem, type FlowStep, hasHumanStep, humanStep, parseFlow } from './flow-parser.js';
import {
  failedRecord,
  handOn,
  joinOutputs,
  type MemberOutput,
  type MemberRecord,
  runInTurn,
  runStep,
} from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** What the human step is told besides its input text. */
export interface HumanStepInfo {
  /** The run's task. */
  task: string;
  /** The outputs handed to this step (empty when the flow starts with H). */
  previous: MemberOutput[];
  /** Fires when the run is aborted. */
  signal?: AbortSignal;
}

/**
 * The human step `H`: gets what an agent in its place would get, as text (the task, then the
 * previous outputs headed by who gave them), and returns the human's answer. The next step gets
 * what the human was handed followed by the answer, so a reviewer's notes travel with the work.
 */
export type HumanStep = (input: string, info: HumanStepInfo) => string | Promise<string>;

/** Options of an AgentRearrange. */
export interface AgentRearrangeOptions {
  /** Its name in traces and as another topology's member (default `'agent-rearrange'`). */
  name?: string;
  /** The members the flow may name (Agents or Topologies, by `name`). */
  agents: Member[];
  /** For example `'researcher -> writer, critic -> editor'`; see the README for the language. */
  flow: string;
  /** Answers the flow's `H` steps; required when the flow has one. */
  human?: HumanStep;
  /**
   * How many members (and human steps) run at once across the whole flow, nested branches included
   * (default: all that are ready).
   */
  maxWorkers?: number;
}

/** One place in the flow and what became of it; `column` says which occurrence of a repeated member. */
export type FlowRecord = MemberRecord & { column: number };

/** What a flow run returns: the last step's output(s), and every member run in the flow's order. */
export interface AgentRearrangeResult extends TopologyResult {
  /** One record per member (or `human`) that ran or was refused, in the order the flow names them. */
  runs: FlowRecord[];
}

/** The name the human step's answers go by, in records and in the turns handed on. */
export const humanName = 'human';

/**
 * Members arranged by a flow: `->` separates steps that run one after another, `,` separates
 * members of one step that run in parallel on the same input, `( )` groups a branch, and `H` asks a
 * human. Each step gets the task and the previous step's outputs as those members' turns.
 */
export class AgentRearrange extends BaseTopology<AgentRearrangeResult> {
  readonly type = 'AgentRearrange';
  readonly name: string;
  /** The flow as given. */
  readonly flow: string;
  readonly #steps: FlowStep[];
  readonly #members: ReadonlyMap<string, Member>;
  readonly #human: HumanStep | undefined;
  readonly #maxWorkers: number;

  constructor(options: AgentRearrangeOptions) {
    super();
    const agents = validateMembers(options?.agents, 'AgentRearrange');
    this.name = nameOption('AgentRearrange', options.name, 'agent-rearrange');
    this.#members = new Map(agents.map((a) => [a.name, a]));
    this.#steps = parseFlow(options.flow, new Set(this.#members.keys()));
    this.flow = options.flow;
    if (options.human !== undefined && typeof options.human !== 'function') {
      throw new ConfigError('AgentRearrange: human must be a function (input, info) => string.');
    }
    if (hasHumanStep(this.#steps)) {
      if (this.#members.has(humanStep)) {
        throw new ConfigError(
          'AgentRearrange: a member is named "H", which the flow reserves for the human step; rename the member.',
        );
      }
      if (!options.human) {
        throw new ConfigError(
          'AgentRearrange: the flow has a human step (H) but no human function was given; pass human: (input) => answer.',
        );
      }
    }
    this.#human = options.human;
    this.#maxWorkers = concurrencyOption('AgentRearrange', 'maxWorkers', options.maxWorkers);
  }

  /** The plan as numbered text: who runs when, on what, in parallel with whom. No model is called. */
  explain(): string {
    return explainFlow(this.flow, this.#steps);
  }

  /** Runs the flow on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<AgentRearrangeResult> {
    checkTask('AgentRearrange', task);
    return runTopology(this, { task, flow: this.flow }, options, async (context) => {
      const run = new FlowRun(this.#members, this.#human, this.#maxWorkers, task, context);
      // The budget stops the flow; the last step that completed gives the answer.
      const { done, interruption } = await runInTurn<MemberOutput[]>(
        this.#steps.length,
        async (i, before) => {
          const outputs = await run.step(this.#steps[i]!, before.at(-1) ?? [], [i + 1]);
          return { value: outputs, interruption: run.interruption };
        },
      );
      const answered = done.at(-1)!;
      return { output: joinOutputs(answered), runs: run.records(), ...interruptionFields(interruption) };
    });
  }
}

/** The state of one run of a flow: its records and budget stop. Never shared between runs. */
class FlowRun {
  readonly #records = new Map<number, FlowRecord>();
  // One cap for the whole run: a step's items and the items of the branches inside it share it.
  readonly #workers: Limiter;
  interruption: BudgetReason | undefined;

  constructor(
    readonly members: ReadonlyMap<string, Member>,
    readonly human: HumanStep | undefined,
    maxWorkers: number,
    readonly task: string,
    readonly context: RunContext,
  ) {
    this.#workers = new Limiter({ concurrency: maxWorkers });
  }

  /** Runs one step's items in parallel on `previous`; its outputs, in the order the items are written. */
  async step(step: FlowStep, previous: MemberOutput[], label: number[]): Promise<MemberOutput[]> {
    this.context.emit({ type: 'rearrange.step', step: label.join('.'), items: step.length });
    const settled = await mapSettled(step, (item, k) => this.#item(item, previous, [...label, k + 1]), {
      signal: this.context.signal,
    });
    throwIfAborted(this.context.signal);
    // Siblings have all settled, so their records stand: an abort, then every pause (as one), then
    // the first refusal or failure stops the flow.
    settledStop(settled);
    const rejected = settled.find((s) => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
  }

  async #item(item: FlowItem, previous: MemberOutput[], label: number[]): Promise<MemberOutput[]> {
    if (item.kind === 'group') {
      let outputs = previous;
      for (const [i, step] of item.steps.entries())
        outputs = await this.step(step, outputs, [...label, i + 1]);
      return outputs;
    }
    const agent = item.kind === 'member' ? item.name : humanName;
    try {
      const output = await this.#workers.run(
        () => (item.kind === 'member' ? this.#member(item.name, previous) : this.#askHuman(previous)),
        { signal: this.context.signal },
      );
      this.#records.set(item.column, { agent, status: 'done', output, column: item.column });
      // A human reviews rather than replaces: what they were handed goes on with their answer.
      return item.kind === 'human' ? [...previous, { agent, output }] : [{ agent, output }];
    } catch (error) {
      // An abort or a pause stops the flow without a record: the item did not fail.
      if (!isAbort(error) && !isPause(error)) {
        const reason = budgetStop(error);
        const record = reason ? { agent, status: 'skipped' as const, reason } : failedRecord(agent, error);
        this.#records.set(item.column, { ...record, column: item.column });
      }
      throw error;
    }
  }

  async #member(name: string, previous: MemberOutput[]): Promise<string> {
    const step = await runStep(this.members.get(name)!, handOn(this.task, previous, name), this.context);
    this.interruption ??= step.interruption;
    return step.output;
  }

  async #askHuman(previous: MemberOutput[]): Promise<string> {
    const input = handOn(this.task, previous);
    const text = typeof input === 'string' ? input : turnsAsText(input);
    const { signal } = this.context;
    const asked = Promise.resolve(this.human!(text, { task: this.task, previous: [...previous], signal }));
    const answer = await raceAbort(asked, signal, 'human step');
    if (typeof answer !== 'string') {
      throw new ConfigError(`AgentRearrange: human() must return a string (got ${typeof answer}).`);
    }
    return answer;
  }

  /** Every record, in the order the flow names the members. */
  records(): FlowRecord[] {
    return [...this.#records.values()].sort((a, b) => a.column - b.column);
  }
}
