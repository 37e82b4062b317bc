import {
  BaseTopology,
  type BudgetReason,
  budgetStop,
  concurrencyOption,
  type GuardrailOptions,
  interruptionFields,
  isAbort,
  isPause,
  type Member,
  type RunContext,
  type RunOptions,
  RunPausedError,
  runTopology,
  type TopologyResult,
  throwIfAborted,
} from '@swarm/core';
import { type CheckedGraph, checkGraph, descendants } from './graph-check.js';
import {
  failedRecord,
  handOn,
  joinOutputs,
  type MemberOutput,
  type MemberRecord,
  runStep,
} from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** Options of a GraphWorkflow: members as nodes of a DAG, and the edges between them. */
export interface GraphWorkflowOptions extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'graph-workflow'`). */
  name?: string;
  /** Node id to the Agent or Topology at that node; ids name the nodes everywhere in the result. */
  nodes: Record<string, Member>;
  /** `[from, to]`: `to` runs after `from` and gets its output. No cycles. */
  edges?: readonly (readonly [string, string])[];
  /** How many nodes run at once (default: every ready node). */
  maxWorkers?: number;
}

/** What a graph run returns: the answer, and what became of every node. */
export interface GraphWorkflowResult extends TopologyResult {
  /**
   * Every node by id, in declaration order: `done` with its output, `failed` with the error, or
   * `skipped` (a node after a failed one, or one the budget left unrun) with the reason.
   */
  nodes: Record<string, MemberRecord>;
}

/**
 * Members on a DAG: every node runs once all its parents are done, in parallel with every other
 * ready node, given the task and its parents' outputs as their turns. The outputs of the nodes with
 * no children are the answer. A node that fails skips everything after it; other branches go on.
 */
export class GraphWorkflow extends BaseTopology<GraphWorkflowResult> {
  readonly type = 'GraphWorkflow';
  readonly name: string;
  readonly #graph: CheckedGraph;
  readonly #maxWorkers: number;

  constructor(options: GraphWorkflowOptions) {
    super();
    this.#graph = checkGraph(options?.nodes, options?.edges);
    this.name = nameOption('GraphWorkflow', options.name, 'graph-workflow');
    this.#maxWorkers = concurrencyOption('GraphWorkflow', 'maxWorkers', options.maxWorkers);
    this.withGuardrails(options);
  }

  /** Runs the graph on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<GraphWorkflowResult> {
    checkTask('GraphWorkflow', task);
    const { ids, children } = this.#graph;
    return runTopology(this, { task, nodes: ids }, options, async (context) => {
      const run = new GraphRun(this.#graph, this.#maxWorkers, task, context);
      await run.all();
      const done = (id: string) => run.records.get(id)?.status === 'done';
      // Normally the leaves answer; stopped by the budget, the furthest nodes that answered do.
      const answering = ids.filter((id) =>
        run.interruption
          ? done(id) && !children.get(id)!.some(done)
          : done(id) && children.get(id)!.length === 0,
      );
      if (answering.length === 0) throw run.firstError();
      const nodes = Object.fromEntries(ids.map((id) => [id, run.records.get(id)!]));
      const outputs = answering.map((id) => ({ agent: id, output: run.outputs.get(id)! }));
      return { output: joinOutputs(outputs), nodes, ...interruptionFields(run.interruption) };
    });
  }
}

/** The state of one run of a graph: what each node became. Never shared between runs. */
class GraphRun {
  readonly records = new Map<string, MemberRecord>();
  readonly outputs = new Map<string, string>();
  readonly #errors = new Map<string, unknown>();
  readonly #ready: string[];
  interruption: BudgetReason | undefined;
  #abort: unknown;
  // Nodes waiting for a person's approval: their children wait too; the others go on.
  readonly #pauses: RunPausedError[] = [];

  constructor(
    readonly graph: CheckedGraph,
    readonly maxWorkers: number,
    readonly task: string,
    readonly context: RunContext,
  ) {
    this.#ready = graph.ids.filter((id) => graph.parents.get(id)!.length === 0);
  }

  /** Runs every node it can: ready nodes start as soon as a worker is free; stops starting on abort or budget. */
  async all(): Promise<void> {
    const running = new Set<Promise<void>>();
    while (true) {
      while (this.#ready.length > 0 && running.size < this.maxWorkers && !this.interruption && !this.#abort) {
        const node: Promise<void> = this.#node(this.#ready.shift()!).then(() => {
          running.delete(node);
        });
        running.add(node);
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
    if (this.#abort) throw this.#abort;
    throwIfAborted(this.context.signal);
    if (this.#pauses.length > 0) throw RunPausedError.merge(this.#pauses);
    for (const id of this.graph.ids) {
      if (!this.records.has(id)) this.#skip(id, this.interruption ?? 'not reached');
    }
  }

  /** The error of the first node (in declaration order) that failed or was refused. */
  firstError(): unknown {
    return this.graph.ids.map((id) => this.#errors.get(id)).find((e) => e !== undefined);
  }

  // Never rejects: what happens to the node is recorded, and an abort is kept for `all` to rethrow.
  async #node(id: string): Promise<void> {
    const { members, parents, children } = this.graph;
    const previous: MemberOutput[] = parents
      .get(id)!
      .map((p) => ({ agent: p, output: this.outputs.get(p)! }));
    try {
      const step = await runStep(members.get(id)!, handOn(this.task, previous), this.context);
      this.outputs.set(id, step.output);
      this.#record(id, { agent: members.get(id)!.name, status: 'done', output: step.output });
      this.interruption ??= step.interruption;
      const ready = children.get(id)!.filter((c) => parents.get(c)!.every((p) => this.outputs.has(p)));
      this.#ready.push(...ready);
    } catch (error) {
      if (isAbort(error)) {
        this.#abort ??= error;
        return;
      }
      if (isPause(error)) {
        this.#pauses.push(error);
        return;
      }
      this.#errors.set(id, error);
      const reason = budgetStop(error);
      if (reason) {
        this.interruption ??= reason;
        this.#skip(id, reason);
        return;
      }
      this.#record(id, failedRecord(members.get(id)!.name, error));
      for (const after of descendants(id, children)) {
        if (!this.records.has(after)) this.#skip(after, `after the failure of "${id}"`);
      }
    }
  }

  #skip(id: string, reason: string): void {
    this.#record(id, { agent: this.graph.members.get(id)!.name, status: 'skipped', reason });
  }

  #record(id: string, record: MemberRecord): void {
    this.records.set(id, record);
    this.context.emit({ type: 'graph.node', node: id, ...record });
  }
}
