import {
  type AsToolOptions,
  addUsage,
  asTool,
  ConfigError,
  Conversation,
  emptyUsage,
  type GuardrailOptions,
  isRunStop,
  type Model,
  type OutputType,
  type RunContext,
  type RunOptions,
  type RunStream,
  resolveModel,
  runStream,
  runTopology,
  type Tool,
  type Topology,
  type Usage,
  validateGuardrails,
} from '@swarm/core';
import { functionAnswer, modelAnswer } from './answer-writer.js';
import { bfs } from './bfs.js';
import { dfs } from './dfs.js';
import { NoAnswerError } from './errors.js';
import { functionEvaluate } from './function-evaluator.js';
import { functionThoughts } from './function-generator.js';
import { type ResolvedOptions, resolveOptions, type TreeOfThoughtsOptions } from './options.js';
import { proposeThoughts } from './propose-generator.js';
import { type TreeOfThoughtsResult, treeOfThoughtsResult } from './result.js';
import { sampleThoughts } from './sample-generator.js';
import type { SearchActions } from './search-actions.js';
import { SearchRun } from './search-run.js';
import type { ThoughtCandidate } from './strategies.js';
import { bestPartialNode, ThoughtNode } from './thought-node.js';
import { valueEvaluate } from './value-evaluator.js';
import { voteEvaluate } from './vote-evaluator.js';

/** What `run` returns for an output type: a list of lines for `'list'`, a string otherwise. */
export type FormattedOutput<O extends OutputType> = O extends 'list' ? string[] : string;

/**
 * Tree of Thoughts (Yao et al., 2023): solves a task by searching a tree of reasoning steps,
 * scoring and pruning branches, instead of answering in one pass.
 */
export class TreeOfThoughts<O extends OutputType = 'final'> {
  readonly type = 'TreeOfThoughts';
  readonly name: string;
  readonly description: string;
  /** The last search's result (`null` before the first run); each run replaces it. */
  lastResult: TreeOfThoughtsResult | null = null;
  /** The last search's conversation: the task, the reasoning path, the answer. */
  conversation: Conversation | null = null;
  readonly #options: ResolvedOptions;
  readonly #model: Model;
  readonly #usage: Usage = emptyUsage();
  readonly #guardrails: GuardrailOptions;

  constructor(options: TreeOfThoughtsOptions<O> = {}) {
    this.#options = resolveOptions(options);
    this.name = this.#options.name;
    this.description = this.#options.description;
    // A bad model string fails here; API keys are read at the first call.
    this.#model = resolveModel(this.#options.model);
    validateGuardrails(options, 'TreeOfThoughts');
    const { inputGuardrails, outputGuardrails } = options;
    this.#guardrails = { inputGuardrails, outputGuardrails };
  }

  /** Token usage summed over every search this instance ran (a copy). */
  get usage(): Usage {
    return { ...this.#usage };
  }

  /** Searches, writes the answer, and returns the conversation formatted by `outputType` (`'final'`: the answer). */
  async run(task: string, options: RunOptions = {}): Promise<FormattedOutput<O>> {
    // This search's own conversation: another run of this instance may replace `this.conversation` meanwhile.
    const { conversation } = await this.#search(task, options);
    return conversation.format(this.#options.outputType) as FormattedOutput<O>;
  }

  /** Like `run`, but returns the whole result (answer, tree, cost): the `Topology` contract. */
  async search(task: string, options: RunOptions = {}): Promise<TreeOfThoughtsResult> {
    return (await this.#search(task, options)).result;
  }

  async #search(
    task: string,
    options: RunOptions,
  ): Promise<{ result: TreeOfThoughtsResult; conversation: Conversation }> {
    if (typeof task !== 'string' || task.trim() === '') {
      throw new ConfigError('TreeOfThoughts.run: task must be a non-empty string.');
    }
    const o = this.#options;
    let ctx: RunContext | undefined;
    let conversation: Conversation | undefined;
    try {
      const fields = await runTopology<Omit<TreeOfThoughtsResult, 'toJSON'>>(
        { type: this.type, name: o.name, ...this.#guardrails },
        { agent: o.name, task },
        options,
        async (context) => {
          ctx = context;
          const run = new SearchRun(task, o, () => this.#model, context);
          const root = new ThoughtNode({ id: 0, content: '', depth: 0, parent: null, isFinal: false });
          // 1-3. Generate, evaluate and prune, as the moves of 4. the search.
          const actions: SearchActions = {
            generate: (node) => this.#generate(run, node),
            evaluate: (candidates) => this.#evaluate(run, candidates),
            expansionsLeft: () => run.expansionsLeft(),
          };
          const solution =
            o.searchAlgorithm === 'bfs' ? await bfs(root, actions, o) : await dfs(root, actions);
          // 5. Answer from the best path: the solution, else the most promising partial path.
          const bestNode = solution ?? bestPartialNode(root);
          const solved = solution !== null;
          const { answer, finalOutput } = await this.#answer(run, root, bestNode, solved);
          const steps = bestNode?.steps ?? [];
          conversation = new Conversation();
          conversation.add('user', task);
          for (const step of steps) conversation.add('assistant', step, o.name);
          conversation.add('assistant', answer, o.name);
          const formatted = conversation.format(o.outputType);
          return {
            task,
            answer,
            output: Array.isArray(formatted) ? formatted.join('\n') : formatted,
            solved,
            steps,
            bestNode,
            root,
            nodesExpanded: run.expansions,
            ...(finalOutput !== undefined && { finalOutput }),
            interrupted: run.interruption !== undefined,
            ...(run.interruption && { interruptionReason: run.interruption.reason }),
          };
        },
        {
          endEvent: (result) => ({ agent: o.name, solved: result.solved }),
          errorAgent: () => o.name,
        },
      );
      // Built from the totals runTopology took after the output guardrails ran.
      const result = treeOfThoughtsResult(fields);
      this.lastResult = result;
      this.conversation = conversation!;
      return { result, conversation: conversation! };
    } finally {
      if (ctx) addUsage(this.#usage, ctx.usage);
    }
  }

  /** Streams the search's events (`tot.*`, `model.*`, `warning`); `result` resolves to the search's result. */
  stream(task: string, options: RunOptions = {}): RunStream<TreeOfThoughtsResult> {
    return runStream((streamOptions) => this.search(task, streamOptions), options);
  }

  /** This search as a `Topology`, whose `run` returns the whole result, for routers and other topologies. */
  asTopology(): Topology<TreeOfThoughtsResult> {
    return {
      type: this.type,
      name: this.name,
      run: (task, options) => this.search(task, options),
      stream: (task, options) => this.stream(task, options),
    };
  }

  /** This search as a tool an agent can call; each call is a search nested in the caller's run. */
  asTool(options: AsToolOptions = {}): Tool {
    return asTool(this.asTopology(), options);
  }

  /** 1. Generate: the node's candidate next steps, duplicates from this parent dropped. */
  async #generate(run: SearchRun, node: ThoughtNode): Promise<ThoughtNode[]> {
    const strategy = this.#options.generationStrategy;
    const turn = run.takeTurn();
    try {
      const candidates =
        strategy === 'propose'
          ? await proposeThoughts(run, node)
          : strategy === 'sample'
            ? await sampleThoughts(run, node)
            : await functionThoughts(strategy, run, node);
      await turn.ready;
      return this.#attach(run, node, candidates);
    } finally {
      turn.release();
    }
  }

  /** Drops the duplicates, makes the rest `node`'s children (final at `maxDepth`), and emits `tot.expand`. */
  #attach(run: SearchRun, node: ThoughtNode, candidates: ThoughtCandidate[]): ThoughtNode[] {
    const { numThoughts, maxDepth } = this.#options;
    const unique = withoutDuplicates(candidates);
    const depth = node.depth + 1;
    const children = unique.slice(0, numThoughts).map(
      (candidate) =>
        new ThoughtNode({
          id: run.nextId(),
          content: candidate.content.trim(),
          depth,
          parent: node,
          // A step at maxDepth is final whether or not the generator flagged it.
          isFinal: candidate.isFinal || depth >= maxDepth,
        }),
    );
    node.children.push(...children);
    run.ctx.emit({
      type: 'tot.expand',
      agent: run.agent('generate'),
      nodeId: node.id,
      depth: node.depth,
      candidates: children.map((c) => ({ id: c.id, content: c.content, isFinal: c.isFinal })),
      duplicates: candidates.length - unique.length,
    });
    return children;
  }

  /** 2-3. Evaluate the candidates, then prune those below `valueThreshold`. */
  async #evaluate(run: SearchRun, candidates: ThoughtNode[]): Promise<void> {
    if (candidates.length === 0) return;
    const strategy = this.#options.evaluationStrategy;
    if (strategy === 'value') await valueEvaluate(run, candidates);
    else if (strategy === 'vote') await voteEvaluate(run, candidates);
    else await functionEvaluate(strategy, run, candidates);
    for (const node of candidates) this.#prune(run, node);
  }

  /** 3. Prune: a candidate below the threshold is never expanded nor accepted; a surviving final step is a solution. */
  #prune(run: SearchRun, node: ThoughtNode): void {
    if (node.score === null) return;
    const { valueThreshold, verbose, name } = this.#options;
    const agent = run.agent('evaluate');
    const where = { nodeId: node.id, depth: node.depth, score: node.score };
    run.ctx.emit({
      type: 'tot.evaluate',
      agent,
      ...where,
      content: node.content,
      isFinal: node.isFinal,
      evaluation: node.evaluation,
    });
    node.pruned = node.score < valueThreshold;
    if (node.pruned) run.ctx.emit({ type: 'tot.prune', agent, ...where, threshold: valueThreshold });
    else if (node.isFinal) run.ctx.emit({ type: 'tot.solution', agent, ...where, steps: node.steps });
    if (verbose) {
      const flags = `${node.isFinal ? ' final' : ''}${node.pruned ? ' pruned' : ''}`;
      console.error(`[${name}] depth ${node.depth} score ${node.score.toFixed(2)}${flags}: ${node.content}`);
    }
  }

  /**
   * 5. Answer: one call writes the answer from the best path. Without budget for it the budget error
   * propagates; if it fails, a solution's own step is the answer, and without a solution nothing is.
   */
  async #answer(
    run: SearchRun,
    root: ThoughtNode,
    bestNode: ThoughtNode | null,
    solved: boolean,
  ): Promise<{ answer: string; finalOutput?: unknown }> {
    const writer = this.#options.answerStrategy;
    const steps = bestNode?.steps ?? [];
    if (writer === 'model') run.ctx.checkBudget();
    try {
      return writer === 'model'
        ? await modelAnswer(run, steps, solved)
        : { answer: await functionAnswer(writer, run, steps, solved) };
    } catch (error) {
      if (isRunStop(error)) throw error;
      run.warn('answer', bestNode ?? root, error);
      // A typed answer has no stand-in: a solution's step is not the object.
      if (solved && bestNode && !this.#options.answerSchema) return { answer: bestNode.content };
      throw new NoAnswerError(run.task, root, error);
    }
  }
}

function withoutDuplicates(candidates: ThoughtCandidate[]): ThoughtCandidate[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = candidate.content.trim().replace(/\s+/g, ' ').toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
