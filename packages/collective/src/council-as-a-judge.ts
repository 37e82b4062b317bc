import {
  Agent,
  BaseTopology,
  type BudgetReason,
  ConfigError,
  concurrencyOption,
  errorMessage,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  type Member,
  type ModelLike,
  mapSettled,
  memberName,
  nonEmptyAnswer,
  type RunContext,
  type RunOptions,
  type RunStream,
  runMember,
  runStream,
  runTopology,
  settledStop,
  type TopologyResult,
} from '@swarm/core';
import { z } from 'zod';
import { type Dimension, resolveDimensions } from './dimensions.js';
import { noAnswer, writeUnlessStopped } from './member-outcomes.js';
import { headOutputType, requireAgent, requireMember } from './options.js';

/** What each judge returns for its dimension (a forced, validated function call). */
export const judgeSchema = z.object({
  score: z.number().min(0).max(10).describe('From 0 (worst) to 10 (best), on this dimension only.'),
  rationale: z.string().describe('Why this score, citing the response.'),
});

/** A judged exchange: the question asked and the response to evaluate. */
export interface CouncilInput {
  question: string;
  response: string;
}

/** One dimension's judgement, or why its judge gave none. */
export type DimensionScore = z.output<typeof judgeSchema> | { error: string };

/** Options of a CouncilAsAJudge: a model for the judges, or the judges themselves (one per dimension). */
export interface CouncilAsAJudgeOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /** Runs one built-in judge per dimension (and the aggregator, unless given). */
  model?: ModelLike;
  /** One Agent per dimension, in the order of `dimensions`; replaces the built-in judges. */
  judges?: readonly Agent<unknown>[];
  /** Names of default dimensions or your own `{ name, description }` (default the six of the original). */
  dimensions?: (string | Dimension)[];
  /** Writes the report from the scores (default an agent on `model`, else on the first judge's model). */
  aggregator?: Member;
  /** Judges running at once (default all). */
  maxWorkers?: number;
  /** Validation failures sent back to a judge before its judgement counts as failed (default 2). */
  maxRepairs?: number;
  /** The aggregator's report as a validated object of this `z.object(...)` (`result.finalOutput`); the aggregator must be an Agent. */
  outputType?: z.ZodType<TOutput>;
}

/** What a CouncilAsAJudge run returns. */
export interface CouncilAsAJudgeResult<TOutput = string> extends TopologyResult {
  /** With `outputType`: the report as that object (absent when the budget stopped the run before it). */
  finalOutput?: TOutput;
  /** Every dimension's score and rationale (or error), in the order of the dimensions. */
  scores: Record<string, DimensionScore>;
  interrupted: boolean;
  interruptionReason?: BudgetReason;
}

const judgeInstructions =
  'You are an expert evaluator on a council of judges. You judge one dimension of a response, strictly and fairly, and cite the response to justify your score.';
const aggregatorInstructions =
  'You chair a council of judges. From their scores and rationales, write a clear evaluation report: an overall assessment, the strengths, the weaknesses, and concrete improvements.';

/**
 * A council of judges evaluates a response: one judge per dimension scores it from 0 to 10 with a
 * rationale, all at once; an aggregator writes the report (seed 001's CouncilAsAJudge).
 */
export class CouncilAsAJudge<TOutput = string> extends BaseTopology<CouncilAsAJudgeResult<TOutput>> {
  readonly type = 'CouncilAsAJudge';
  readonly name: string;
  readonly dimensions: readonly Dimension[];
  readonly judges: readonly Agent<unknown>[];
  readonly aggregator: Member;
  readonly #maxWorkers: number;
  readonly #maxRepairs: number;
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: CouncilAsAJudgeOptions<TOutput>) {
    super();
    const owner = 'CouncilAsAJudge';
    this.name = options.name ?? 'council-as-a-judge';
    this.dimensions = resolveDimensions(owner, options.dimensions);
    if (options.judges === undefined && options.model === undefined) {
      throw new ConfigError(
        `${owner}: give a model (for built-in judges) or judges (one Agent per dimension).`,
      );
    }
    if (options.judges !== undefined) {
      if (!Array.isArray(options.judges) || options.judges.length !== this.dimensions.length) {
        throw new ConfigError(
          `${owner}: judges must hold one Agent per dimension (${this.dimensions.length}: ${this.dimensions.map((d) => d.name).join(', ')}).`,
        );
      }
      this.judges = options.judges.map((judge, i) =>
        requireAgent(owner, `judges[${i}]`, judge, 'a judge returns a structured score'),
      );
    } else {
      this.judges = this.dimensions.map(
        (d) => new Agent({ name: `${d.name} judge`, instructions: judgeInstructions, model: options.model! }),
      );
    }
    this.aggregator =
      options.aggregator === undefined
        ? new Agent({
            name: 'aggregator',
            instructions: aggregatorInstructions,
            model: options.model ?? this.judges[0]!.model,
          })
        : requireMember(owner, 'aggregator', options.aggregator);
    this.#maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.#outputType = headOutputType(owner, 'aggregator', options.outputType, this.aggregator);
    this.withGuardrails(options);
  }

  /** Judges a response to a question. A failing judge is reported in `scores`, not fatal. */
  run(input: CouncilInput, options?: RunOptions): Promise<CouncilAsAJudgeResult<TOutput>>;
  /** Judges one text holding both the question and the response (the `Topology` form). */
  run(task: string, options?: RunOptions): Promise<CouncilAsAJudgeResult<TOutput>>;
  run(input: string | CouncilInput, options: RunOptions = {}): Promise<CouncilAsAJudgeResult<TOutput>> {
    return this.#evaluate(input, options);
  }

  /** Streams a run's events; takes `{ question, response }` or one text, like `run`. */
  override stream(input: CouncilInput, options?: RunOptions): RunStream<CouncilAsAJudgeResult<TOutput>>;
  override stream(task: string, options?: RunOptions): RunStream<CouncilAsAJudgeResult<TOutput>>;
  override stream(
    input: string | CouncilInput,
    options: RunOptions = {},
  ): RunStream<CouncilAsAJudgeResult<TOutput>> {
    return runStream((o) => this.#evaluate(input, o), options);
  }

  async #evaluate(
    input: string | CouncilInput,
    options: RunOptions,
  ): Promise<CouncilAsAJudgeResult<TOutput>> {
    const exchange = describeExchange(input);
    return runTopology<CouncilAsAJudgeResult<TOutput>>(this, { task: exchange }, options, async (context) => {
      // 1. Judge: one judge per dimension, all at once.
      const settled = await mapSettled(
        this.dimensions,
        (d, i) => this.#judge(this.judges[i]!, d, exchange, context),
        {
          concurrency: this.#maxWorkers,
          signal: context.signal,
        },
      );
      const stop = settledStop(settled);
      const scores: Record<string, DimensionScore> = {};
      settled.forEach((outcome, i) => {
        scores[this.dimensions[i]!.name] =
          outcome.status === 'fulfilled' ? outcome.value : { error: errorMessage(outcome.reason) };
      });
      context.emit({ type: 'council.scores', scores });
      if (!Object.values(scores).some((s) => 'score' in s)) {
        if (stop) throw stop;
        throw noAnswer(`CouncilAsAJudge: every judge failed (${listScores(scores)}).`);
      }

      // 2. Report: the aggregator writes it; after a budget stop, the scores are the report.
      let finalOutput: TOutput | undefined;
      const outputType = this.#outputType;
      const report = await writeUnlessStopped(stop, listScores(scores), () =>
        nonEmptyAnswer(memberName(this.aggregator), context, async () => {
          const answered = await runMember(
            this.aggregator,
            `${exchange}\n\nThe council's scores (0-10):\n${listScores(scores)}`,
            context,
            outputType ? { outputType } : {},
          );
          if (outputType) finalOutput = answered.finalOutput as TOutput;
          return answered;
        }),
      );
      return {
        output: report.output,
        ...(finalOutput !== undefined && { finalOutput }),
        scores,
        interrupted: false,
        ...interruptionFields(report.stop?.reason),
      };
    });
  }

  async #judge(judge: Agent<unknown>, dimension: Dimension, exchange: string, context: RunContext) {
    const prompt = `Judge the response below on one dimension only.\nDimension: ${dimension.name}: ${dimension.description}\n\n${exchange}`;
    const { object } = await judge.generateObject(judgeSchema, prompt, {
      context,
      name: 'judge',
      description: 'Give your score (0-10) and rationale for this dimension.',
      maxRepairs: this.#maxRepairs,
    });
    return object;
  }
}

function describeExchange(input: string | CouncilInput): string {
  if (typeof input === 'string') {
    if (input.trim() === '') throw new ConfigError('CouncilAsAJudge: the text to judge is empty.');
    return `The exchange to evaluate (question and response):\n${input}`;
  }
  if (typeof input?.question !== 'string' || typeof input.response !== 'string') {
    throw new ConfigError('CouncilAsAJudge: run takes a string, or { question: string, response: string }.');
  }
  return `Question:\n${input.question}\n\nResponse to evaluate:\n${input.response}`;
}

function listScores(scores: Record<string, DimensionScore>): string {
  return Object.entries(scores)
    .map(([name, s]) =>
      'score' in s ? `- ${name}: ${s.score}/10. ${s.rationale}` : `- ${name}: no score (${s.error})`,
    )
    .join('\n');
}
