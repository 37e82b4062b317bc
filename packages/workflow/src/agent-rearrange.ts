import {
  BaseTopology,
  type BudgetReason,
  booleanOption,
  budgetStop,
  ConfigError,
  concurrencyOption,
  type GuardrailOptions,
  integerOption,
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
import {
  type FlowItem,
  type FlowStep,
  flowMembers,
  hasHumanStep,
  humanStep,
  parseFlow,
} from './flow-parser.js';
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
import { type ContextMode, contextOption, teamNote, withTeamNote } from './shared-context.js';

/** What the human step is told besides its input text. */
export interface HumanStepInfo {
  /** The run's task. */
  task: string;
  /** The outputs handed to this step (every earlier one with `context: 'full'`; empty when the flow starts with H). */
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
export interface AgentRearrangeOptions extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'agent-rearrange'`). */
  name?: string;
  /** The members the flow may name (Agents or Topologies, by `name`). */
  agents: readonly Member[];
  /** For example `'researcher -> writer, critic -> editor'`; see the README for the language. */
  flow: string;
  /** Answers the flow's `H` steps; required when the flow has one. */
  human?: HumanStep;
  /**
   * How many members (and human steps) run at once across the whole flow, nested branches included
   * (default: all that are ready).
   */
  maxWorkers?: number;
  /** What each step reads: `'full'` (default, as swarms) the task and every earlier output; `'previous'` the step before only. */
  context?: ContextMode;
  /** How many times the whole flow runs, each pass reading the passes before it (default 1). */
  maxLoops?: number;
  /** Tell each member its place in the flow: who works before and after it (default false, as swarms). */
  teamAwareness?: boolean;
}

/**
 * One place in the flow and what became of it; `column` says which occurrence of a repeated member,
 * `loop` (with `maxLoops` above 1) which pass of the flow.
 */
export type FlowRecord = MemberRecord & { column: number; loop?: number };

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
 * human. Each step gets the task and the earlier steps' outputs as those members' turns (all of
 * them, or with `context: 'previous'` the step before only).
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
  readonly context: ContextMode;
  readonly maxLoops: number;
  readonly teamAwareness: boolean;

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
    this.context = contextOption('AgentRearrange', options.context);
    this.maxLoops = integerOption('AgentRearrange', 'maxLoops', options.maxLoops, 1, 1);
    this.teamAwareness = booleanOption('AgentRearrange', 'teamAwareness', options.teamAwareness, false);
    this.withGuardrails(options);
  }

  /** The plan as numbered text: who runs when, on what, in parallel with whom. No model is called. */
  explain(): string {
    return explainFlow(this.flow, this.#steps);
  }

  /** Runs the flow on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<AgentRearrangeResult> {
    checkTask('AgentRearrange', task);
    return runTopology(this, { task, flow: this.flow }, options, async (context) => {
      const run = new FlowRun(this, this.#members, this.#human, this.#maxWorkers, task, context);
      const count = this.#steps.length;
      // The budget stops the flow; the last step that completed gives the answer.
      const { done, interruption } = await runInTurn<Handed>(count * this.maxLoops, async (i, before) => {
        const handed = { last: before.at(-1)?.last ?? [], all: before.flatMap((b) => b.all) };
        run.loop = Math.floor(i / count) + 1;
        const outputs = await run.step(this.#steps[i % count]!, handed, [i + 1]);
        return { value: outputs, interruption: run.interruption };
      });
      const answered = done.at(-1)!.last;
      return { output: joinOutputs(answered), runs: run.records(), ...interruptionFields(interruption) };
    });
  }

  /** The note `teamAwareness` gives the member at `label` (its top-level step), or undefined. */
  noteFor(name: string, label: readonly number[]): string | undefined {
    if (!this.teamAwareness) return undefined;
    const count = this.#steps.length;
    const step = (label[0]! - 1) % count;
    return teamNote({
      name,
      team: `flow "${this.flow}"`,
      step: step + 1,
      steps: count,
      before: step > 0 ? stepNames(this.#steps[step - 1]!) : [],
      after: step < count - 1 ? stepNames(this.#steps[step + 1]!) : [],
    });
  }
}

/** The members a step names (a human step as `human`), in the order written. */
function stepNames(step: FlowStep): string[] {
  return step.flatMap((item) =>
    item.kind === 'human' ? [humanName] : item.kind === 'member' ? [item.name] : flowMembers(item.steps),
  );
}

/**
 * What a step hands on: its last outputs (what the next step reads with `context: 'previous'`, and
 * the answer of the last step), and every output it produced, in flow order (a branch's inner steps
 * too), which later steps read with `context: 'full'`.
 */
interface Handed {
  last: MemberOutput[];
  all: MemberOutput[];
}

/** The state of one run of a flow: its records and budget stop. Never shared between runs. */
class FlowRun {
  readonly #records = new Map<string, FlowRecord>();
  // One cap for the whole run: a step's items and the items of the branches inside it share it.
  readonly #workers: Limiter;
  interruption: BudgetReason | undefined;
  /** The pass of the flow being run (1-based). */
  loop = 1;

  constructor(
    readonly flow: AgentRearrange,
    readonly members: ReadonlyMap<string, Member>,
    readonly human: HumanStep | undefined,
    maxWorkers: number,
    readonly task: string,
    readonly context: RunContext,
  ) {
    this.#workers = new Limiter({ concurrency: maxWorkers });
  }

  /** Runs one step's items in parallel on what was handed to it; its outputs, in the order the items are written. */
  async step(step: FlowStep, handed: Handed, label: number[]): Promise<Handed> {
    this.context.emit({ type: 'rearrange.step', step: label.join('.'), items: step.length });
    const settled = await mapSettled(step, (item, k) => this.#item(item, handed, [...label, k + 1]), {
      signal: this.context.signal,
    });
    throwIfAborted(this.context.signal);
    // Siblings have all settled, so their records stand: an abort, then every pause (as one), then
    // the first refusal or failure stops the flow.
    settledStop(settled);
    const rejected = settled.find((s) => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    const values = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    return { last: values.flatMap((v) => v.last), all: values.flatMap((v) => v.all) };
  }

  async #item(item: FlowItem, handed: Handed, label: number[]): Promise<Handed> {
    if (item.kind === 'group') {
      let inner = handed;
      const all: MemberOutput[] = [];
      for (const [i, step] of item.steps.entries()) {
        const outputs = await this.step(step, inner, [...label, i + 1]);
        all.push(...outputs.all);
        inner = { last: outputs.last, all: [...inner.all, ...outputs.all] };
      }
      return { last: inner.last, all };
    }
    const agent = item.kind === 'member' ? item.name : humanName;
    const previous = this.flow.context === 'full' ? handed.all : handed.last;
    const key = `${this.loop}:${item.column}`;
    const place = { column: item.column, ...(this.flow.maxLoops > 1 && { loop: this.loop }) };
    try {
      const output = await this.#workers.run(
        () => (item.kind === 'member' ? this.#member(item.name, previous, label) : this.#askHuman(previous)),
        { signal: this.context.signal },
      );
      this.#records.set(key, { agent, status: 'done', output, ...place });
      const own = { agent, output };
      // A human reviews rather than replaces: what they were handed goes on with their answer.
      return { last: item.kind === 'human' ? [...handed.last, own] : [own], all: [own] };
    } catch (error) {
      // An abort or a pause stops the flow without a record: the item did not fail.
      if (!isAbort(error) && !isPause(error)) {
        const reason = budgetStop(error);
        const record = reason ? { agent, status: 'skipped' as const, reason } : failedRecord(agent, error);
        this.#records.set(key, { ...record, ...place });
      }
      throw error;
    }
  }

  async #member(name: string, previous: MemberOutput[], label: readonly number[]): Promise<string> {
    const input = withTeamNote(handOn(this.task, previous, name), this.flow.noteFor(name, label));
    const step = await runStep(this.members.get(name)!, input, this.context);
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
    return [...this.#records.values()].sort((a, b) => (a.loop ?? 1) - (b.loop ?? 1) || a.column - b.column);
  }
}
