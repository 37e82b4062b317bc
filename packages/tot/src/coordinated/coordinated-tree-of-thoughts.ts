import {
  BaseTopology,
  ConfigError,
  mapSettled,
  type RunOptions,
  runTopology,
  type Settled,
  settledStop,
} from '@swarm/core';
import { CoordinatedThoughtNode, validateThoughtNode } from './coordinated-node.js';
import {
  type CoordinatedTreeOfThoughtsOptions,
  type ResolvedCoordinatedOptions,
  resolveCoordinatedOptions,
} from './coordinated-options.js';
import {
  type CoordinatedTreeOfThoughtsResult,
  type ExplorationEnd,
  type SynthesisBasis,
  type SynthesizedNode,
  withToJSON,
} from './coordinated-result.js';
import { CoordinatedRun } from './coordinated-run.js';
import { RequestRate, rateLimited } from './rate-limit.js';
import { evaluate, plan, research, synthesize, thoughtsToGenerate } from './specialists.js';

/**
 * The seed's multi-agent Tree of Thoughts: a coordinator grows a tree of thoughts with a Planner,
 * a Researcher, an Analyzer and a Critic, keeps exploring the paths no evaluator wants to stop,
 * and has a Synthesizer answer from the high-scoring thoughts of the whole tree. Every run is
 * bounded by `maxDepth`, `beamWidth` (default 2) and the run's budget.
 */
export class CoordinatedTreeOfThoughts extends BaseTopology<CoordinatedTreeOfThoughtsResult> {
  readonly type = 'CoordinatedTreeOfThoughts';
  readonly name: string;
  readonly description: string;
  readonly #options: ResolvedCoordinatedOptions;
  /** Shared by every run of this instance, so `requestsPerMinute` holds across runs. */
  readonly #rate: RequestRate | undefined;

  constructor(options: CoordinatedTreeOfThoughtsOptions = {}) {
    super();
    this.#options = resolveCoordinatedOptions(options);
    this.name = this.#options.name;
    this.description = this.#options.description;
    const rpm = this.#options.requestsPerMinute;
    this.#rate = rpm === undefined ? undefined : new RequestRate(rpm);
    this.withGuardrails(options);
  }

  /** Explores the problem and synthesizes the answer; the result holds the whole tree. */
  async run(task: string, options: RunOptions = {}): Promise<CoordinatedTreeOfThoughtsResult> {
    if (typeof task !== 'string' || task.trim() === '') {
      throw new ConfigError(`${this.type}.run: task must be a non-empty string.`);
    }
    return runTopology(this, { task }, this.#withRateLimit(options), async (context) => {
      const run = new CoordinatedRun(task, this.#options, context);
      // 1. Initialization: the root holds the problem; the Planner's strategies are its children.
      const root = this.#root(run);
      run.synthesizesFrom(() => this.#synthesisChoice(root).nodes);
      let active = [root];
      let endedBy: ExplorationEnd = 'noActiveNodes';
      // 2. Exploration, while active paths exist: generate, evaluate, select.
      while (active.length > 0) {
        if (active[0]!.depth >= this.#options.maxDepth) {
          endedBy = 'maxDepth';
          break;
        }
        const generated = await this.#generate(run, active);
        // A node whose Planner call failed stays active, unexpanded: it ends no path on its own.
        const unexpanded = active.some((node) => !node.expanded);
        await this.#evaluate(run, generated);
        active = this.#select(run, generated);
        if (run.interruption) {
          endedBy = 'budget';
          break;
        }
        if (active.length === 0 && unexpanded) endedBy = 'plannerFailed';
        // A node no evaluator could judge stays generated: a failure, not a stop, ended its path.
        else if (active.length === 0 && generated.some((node) => node.status === 'generated')) {
          endedBy = 'evaluationFailed';
        }
      }
      // 3. Synthesis from the high-scoring nodes of the whole tree.
      const { nodes, basis } = this.#highScoring(run, root);
      const answer = await synthesize(run, nodes);
      return withToJSON({
        task,
        output: answer,
        answer,
        synthesized: nodes,
        synthesisBasis: basis,
        endedBy,
        researched: this.#options.researcher !== undefined,
        root,
        nodeCount: [...root.walk()].length,
        roles: run.costs(),
        interrupted: run.interruption !== undefined,
        ...(run.interruption && { interruptionReason: run.interruption.reason }),
      });
    });
  }

  #withRateLimit(options: RunOptions): RunOptions {
    if (!this.#rate) return options;
    return { ...options, limiter: rateLimited(this.#rate, options.limiter ?? options.parent?.limiter) };
  }

  /** The root node: the problem, validated like every node, active from the start. */
  #root(run: CoordinatedRun): CoordinatedThoughtNode {
    const data = { id: 'root', parentId: null, thought: run.task, depth: 0, status: 'active' as const };
    const check = validateThoughtNode(data, null);
    if (!check.valid)
      throw new ConfigError(`${this.type}: the problem is not a valid root: ${check.reason}.`);
    const root = new CoordinatedThoughtNode({ ...data, thought: run.task.trim(), parent: null });
    run.added(root);
    return root;
  }

  /**
   * Generation: the Planner proposes next thoughts for every active node at once (a dynamic count,
   * from the parent's score); the validator admits each one into the tree with status `generated`,
   * in the active nodes' order, whatever order the calls finish in.
   */
  async #generate(run: CoordinatedRun, active: CoordinatedThoughtNode[]): Promise<CoordinatedThoughtNode[]> {
    const { initialThoughts } = this.#options;
    const proposals = await this.#settled(run, active, async (node) => {
      const count = thoughtsToGenerate(node, initialThoughts);
      return { count, thoughts: await plan(run, node, count) };
    });
    const generated: CoordinatedThoughtNode[] = [];
    active.forEach((parent, i) => {
      const { count, thoughts } = proposals[i]!;
      if (thoughts === undefined) return;
      parent.expanded = true;
      thoughts.forEach((thought, index) => {
        const data = {
          id: `${parent.id}-${index}`,
          parentId: parent.id,
          thought,
          depth: parent.depth + 1,
          status: 'generated' as const,
        };
        const reason = this.#rejection(run, parent, data, index, count);
        if (reason !== undefined) {
          run.rejected(data, reason);
          return;
        }
        const node = new CoordinatedThoughtNode({ ...data, thought: thought.trim(), parent });
        parent.children.push(node);
        generated.push(node);
        run.added(node);
      });
    });
    return generated;
  }

  /** Why the validator keeps a proposed thought out of the tree, or undefined when it may enter. */
  #rejection(
    run: CoordinatedRun,
    parent: CoordinatedThoughtNode,
    data: Parameters<typeof validateThoughtNode>[0],
    index: number,
    count: number,
  ): string | undefined {
    if (index >= count) return `the planner was asked for ${count} thoughts; this is one more`;
    const check = validateThoughtNode(data, parent, run.ids);
    if (!check.valid) return check.reason;
    const key = normalized(data.thought);
    const twin = parent.children.find((child) => normalized(child.thought) === key);
    return twin ? `it repeats ${twin.id}` : undefined;
  }

  /**
   * Evaluation of every new node: the Researcher first, then the Analyzer and the Critic at once
   * on the findings. A node's score is the mean of the evaluators that answered; a node no
   * evaluator could judge stays `generated`.
   */
  async #evaluate(run: CoordinatedRun, nodes: CoordinatedThoughtNode[]): Promise<void> {
    await this.#settled(run, nodes, async (node) => {
      node.research = (await research(run, node)) ?? null;
      const verdicts = await Promise.all([evaluate(run, node, 'analyzer'), evaluate(run, node, 'critic')]);
      for (const verdict of verdicts) if (verdict) node.evaluations.push(verdict);
    });
    // Statuses change and events go out in tree order, not in the order the evaluations finished.
    for (const node of nodes) {
      if (node.evaluations.length === 0) continue;
      node.score = node.evaluations.reduce((sum, e) => sum + e.score, 0) / node.evaluations.length;
      node.status = 'evaluated';
      run.ctx.emit({
        type: 'tot.evaluate',
        nodeId: node.id,
        depth: node.depth,
        score: node.score,
        terminate: node.terminationRecommended,
        research: node.research,
        evaluations: node.evaluations.map((e) => ({ ...e, reasons: [...e.reasons] })),
      });
      run.nodeEvent('status', node);
    }
  }

  /**
   * Selection: an evaluated node an evaluator wants stopped becomes `terminatedEarly`; the others
   * become `active` (the best `beamWidth` of them; the rest stay `evaluated`).
   */
  #select(run: CoordinatedRun, nodes: CoordinatedThoughtNode[]): CoordinatedThoughtNode[] {
    const evaluated = nodes.filter((node) => node.status === 'evaluated');
    const continuing = evaluated.filter((node) => !node.terminationRecommended);
    const byScore = [...continuing].sort((a, b) => b.score! - a.score!);
    const kept = new Set(byScore.slice(0, this.#options.beamWidth));
    for (const node of evaluated) {
      if (node.terminationRecommended) node.status = 'terminatedEarly';
      else if (kept.has(node)) node.status = 'active';
      else continue;
      run.nodeEvent('status', node);
    }
    return continuing.filter((node) => kept.has(node));
  }

  /** The nodes to synthesize from (announced in a `tot.synthesize` event). */
  #highScoring(
    run: CoordinatedRun,
    root: CoordinatedThoughtNode,
  ): { nodes: SynthesizedNode[]; basis: SynthesisBasis } {
    const { scoreThreshold, topN } = this.#options;
    const { nodes, basis } = this.#synthesisChoice(root);
    run.ctx.emit({
      type: 'tot.synthesize',
      basis,
      scoreThreshold,
      topN,
      nodes: nodes.map((n) => ({ id: n.id, score: n.score })),
    });
    return { nodes, basis };
  }

  /** Every node scoring at least the threshold, else the top N; at most maxSynthesisNodes, best first. */
  #synthesisChoice(root: CoordinatedThoughtNode): { nodes: SynthesizedNode[]; basis: SynthesisBasis } {
    const { scoreThreshold, topN, maxSynthesisNodes } = this.#options;
    const scored = [...root.walk()].filter((n) => n.score !== null).sort((a, b) => b.score! - a.score!);
    const above = scored.filter((n) => n.score! >= scoreThreshold);
    const chosen = (above.length > 0 ? above : scored.slice(0, topN)).slice(0, maxSynthesisNodes);
    const basis: SynthesisBasis = above.length > 0 ? 'threshold' : scored.length > 0 ? 'topN' : 'none';
    const nodes = chosen.map((n) => ({
      id: n.id,
      score: n.score!,
      depth: n.depth,
      status: n.status,
      thought: n.thought,
      path: n.path,
    }));
    return { nodes, basis };
  }

  /** Runs `fn` over `nodes`, at most `maxWorkers` at once, in input order; an abort propagates. */
  async #settled<T, R>(run: CoordinatedRun, nodes: T[], fn: (node: T) => Promise<R>): Promise<R[]> {
    const settled: Settled<R>[] = await mapSettled(nodes, fn, {
      concurrency: this.#options.maxWorkers,
      ...(run.ctx.signal && { signal: run.ctx.signal }),
    });
    // Specialist calls never reject but for an abort or a pause (failures are warnings, budget
    // stops are kept): an abort first, then every pause as one.
    settledStop(settled);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((s) => (s as { value: R }).value);
  }
}

function normalized(thought: string): string {
  return thought.trim().replace(/\s+/g, ' ').toLowerCase();
}
