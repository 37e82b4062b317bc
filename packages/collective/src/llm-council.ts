import {
  type Agent,
  BaseTopology,
  type BudgetExceededError,
  type BudgetReason,
  concurrencyOption,
  errorMessage,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  isTopology,
  type Member,
  mapSettled,
  memberName,
  nonEmptyAnswer,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  settledStop,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { z } from 'zod';
import { describeFailures, noAnswer, writeUnlessStopped } from './member-outcomes.js';
import { headOutputType, requireMember } from './options.js';
import { type AggregateRank, anonymousIds, meanRank, type Ranking } from './rank-aggregation.js';

/** A member's answer and the anonymous id the other members and the chairman know it by. */
export interface CouncilAnswer {
  member: string;
  id: string;
  output: string;
}

/** A member that failed at one stage (answering or ranking); the council goes on without it. */
export interface CouncilFailure {
  agent: string;
  stage: 'answer' | 'rank';
  error: string;
}

/** Options of an LLMCouncil. */
export interface LLMCouncilOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /** At least three. Each answers; each Agent member also ranks the others' answers (a Topology member answers only). */
  members: Member[];
  /** Writes the final answer, seeing only anonymous ids, the answers and the aggregate ranking. */
  chairman: Member;
  /** Members answering or ranking at once (default all). */
  maxWorkers?: number;
  /** Validation failures sent back to a ranker before its ranking counts as failed (default 2). */
  maxRepairs?: number;
  /** The chairman's answer as a validated object of this `z.object(...)` (`result.finalOutput`); the chairman must be an Agent. */
  outputType?: z.ZodType<TOutput>;
}

/** What an LLMCouncil run returns. */
export interface LLMCouncilResult<TOutput = string> extends TopologyResult {
  /** With `outputType`: the chairman's answer as that object (absent when the budget stopped the run before it). */
  finalOutput?: TOutput;
  /** Every answer, in member input order. */
  answers: CouncilAnswer[];
  /** Every ranking given, in member input order, best first. */
  rankings: Ranking[];
  /** Mean rank of each answer (1 = best), best first. */
  aggregate: AggregateRank[];
  failures: CouncilFailure[];
  interrupted: boolean;
  interruptionReason?: BudgetReason;
}

/**
 * Members answer a task; each ranks the others' anonymized answers (never its own); the ranks are
 * aggregated by mean rank; a chairman who sees only anonymous ids writes the final answer.
 */
export class LLMCouncil<TOutput = string> extends BaseTopology<LLMCouncilResult<TOutput>> {
  readonly type = 'LLMCouncil';
  readonly name: string;
  readonly members: readonly Member[];
  readonly chairman: Member;
  readonly #maxWorkers: number;
  readonly #maxRepairs: number;
  readonly #outputType: z.ZodObject | undefined;

  constructor(options: LLMCouncilOptions<TOutput>) {
    super();
    const owner = 'LLMCouncil';
    this.name = options.name ?? 'llm-council';
    this.members = validateMembers(options.members, owner, { option: 'members', min: 3 });
    this.chairman = requireMember(owner, 'chairman', options.chairman);
    this.#maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.#outputType = headOutputType(owner, 'chairman', options.outputType, this.chairman);
    this.withGuardrails(options);
  }

  /** Answers, ranks, aggregates, and has the chairman write the final answer. */
  run(task: string, options: RunOptions = {}): Promise<LLMCouncilResult<TOutput>> {
    return runTopology<LLMCouncilResult<TOutput>>(this, { task }, options, async (context) => {
      const failures: CouncilFailure[] = [];
      const concurrency = { concurrency: this.#maxWorkers, signal: context.signal };

      // 1. Answer: every member at once; answers get anonymous ids in member order.
      const answered = await mapSettled(this.members, (m) => runMember(m, task, context), concurrency);
      let stop: BudgetExceededError | undefined = settledStop(answered);
      const outputs: { member: string; output: string }[] = [];
      answered.forEach((outcome, i) => {
        const member = memberName(this.members[i]!);
        if (outcome.status === 'fulfilled') outputs.push({ member, output: outcome.value.output });
        else failures.push({ agent: member, stage: 'answer', error: errorMessage(outcome.reason) });
      });
      const ids = anonymousIds(outputs.length);
      const answers = outputs.map((a, i): CouncilAnswer => ({ ...a, id: ids[i]! }));
      if (answers.length === 0) {
        if (stop) throw stop;
        throw noAnswer(`LLMCouncil: every member failed to answer (${describeFailures(failures)}).`);
      }

      // 2. Rank: each Agent member ranks the answers that are not its own, shown by id only.
      const rankings: Ranking[] = [];
      if (!stop) {
        const rankers = this.members.filter((m): m is Agent => !isTopology(m));
        const ranked = await mapSettled(rankers, (m) => this.#rank(m, task, answers, context), concurrency);
        stop = settledStop(ranked);
        ranked.forEach((outcome, i) => {
          const member = rankers[i]!.name;
          if (outcome.status === 'rejected') {
            failures.push({ agent: member, stage: 'rank', error: errorMessage(outcome.reason) });
          } else if (outcome.value) rankings.push({ member, ranking: outcome.value });
        });
      }

      // 3. Aggregate: mean rank, best first.
      const aggregate = meanRank(ids, rankings);
      context.emit({ type: 'council.aggregate', aggregate });
      const best = answers.find((a) => a.id === aggregate[0]!.id)!;

      // 4. Chair: the chairman writes the final answer from anonymous answers and the ranking.
      let finalOutput: TOutput | undefined;
      const outputType = this.#outputType;
      const final = await writeUnlessStopped(stop, best.output, () =>
        nonEmptyAnswer(memberName(this.chairman), context, async () => {
          const input = chairInput(task, answers, aggregate);
          const answered = await runMember(this.chairman, input, context, outputType ? { outputType } : {});
          if (outputType) finalOutput = answered.finalOutput as TOutput;
          return answered;
        }),
      );
      return {
        output: final.output,
        ...(finalOutput !== undefined && { finalOutput }),
        answers,
        rankings,
        aggregate,
        failures,
        interrupted: false,
        ...interruptionFields(final.stop?.reason),
      };
    });
  }

  // Returns undefined when there are fewer than two others' answers to rank (no information).
  async #rank(ranker: Agent, task: string, answers: CouncilAnswer[], context: RunContext) {
    const others = this.#shownTo(ranker, answers);
    if (others.length < 2) return undefined;
    const ids = others.map((a) => a.id) as [string, ...string[]];
    const schema = z
      .object({
        ranking: z
          .array(z.enum(ids))
          .length(ids.length)
          .describe(`Every response id exactly once, best first: ${ids.join(', ')}.`),
      })
      .refine((r) => new Set(r.ranking).size === ids.length, {
        message: `ranking must list each of ${ids.join(', ')} exactly once`,
        path: ['ranking'],
      });
    const { object } = await ranker.generateObject(schema, rankPrompt(task, others), {
      context,
      name: 'rank',
      description: 'Rank the responses from best to worst by their ids.',
      maxRepairs: this.#maxRepairs,
    });
    return object.ranking;
  }

  // The others' answers in the order this ranker sees them: cyclic member order starting just
  // after the ranker itself. Deterministic, and in a full council each answer is shown at each
  // position exactly once over all rankers, so no answer gains from always being listed first.
  #shownTo(ranker: Agent, answers: CouncilAnswer[]): CouncilAnswer[] {
    const count = this.members.length;
    const indexOf = (name: string) => this.members.findIndex((m) => memberName(m) === name);
    const start = indexOf(ranker.name) + 1;
    const distance = (a: CouncilAnswer) => (indexOf(a.member) - start + count) % count;
    return answers.filter((a) => a.member !== ranker.name).sort((a, b) => distance(a) - distance(b));
  }
}

function listAnswers(answers: CouncilAnswer[]): string {
  return answers.map((a) => `Response ${a.id}:\n${a.output}`).join('\n\n');
}

function rankPrompt(task: string, others: CouncilAnswer[]): string {
  return `Task:\n${task}\n\nAnonymous responses to the task:\n\n${listAnswers(others)}\n\nRank these responses from best to worst on accuracy and insight.`;
}

function chairInput(task: string, answers: CouncilAnswer[], aggregate: AggregateRank[]): string {
  const order = aggregate
    .map(
      (r, i) =>
        `${i + 1}. Response ${r.id}: ${r.score === null ? 'not ranked' : `mean rank ${r.score.toFixed(2)}`}`,
    )
    .join('\n');
  return `Task:\n${task}\n\nAnonymous responses from the council:\n\n${listAnswers(answers)}\n\nThe council's aggregate ranking (mean position, 1 = best):\n${order}\n\nAs chairman, write the final answer to the task, drawing on the best-ranked responses.`;
}
