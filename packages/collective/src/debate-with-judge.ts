import {
  type Agent,
  BaseTopology,
  type BudgetExceededError,
  type BudgetReason,
  budgetStop,
  Conversation,
  errorMessage,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  isRunStop,
  type Member,
  type Message,
  memberName,
  nonEmptyAnswer,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyResult,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import { z } from 'zod';
import { failure, type MemberAnswer, type MemberFailure, noAnswer } from './member-outcomes.js';
import { requireAgent } from './options.js';

/** The judge's verdict after each round (a forced, validated function call). */
export const verdictSchema = z.object({
  winner: z.enum(['pro', 'con', 'tie']).describe('Who argued better so far.'),
  synthesis: z.string().describe('The best answer on the proposition, drawing on both sides.'),
  confidence: z.number().min(0).max(1).describe('How sure you are of the synthesis, from 0 to 1.'),
  converged: z.boolean().describe('True when the sides no longer add anything new: the debate can stop.'),
});

/** The judge's verdict. */
export type Verdict = z.output<typeof verdictSchema>;

/** One side's argument in a round, or why it has none. */
export type Argument = MemberAnswer | MemberFailure;

/** One round: both arguments and the verdict (or why the judge gave none). */
export interface DebateRound {
  pro: Argument;
  con: Argument;
  verdict: Verdict | { error: string };
}

/** Options of a DebateWithJudge. */
export interface DebateWithJudgeOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /** Argues for the proposition (an Agent or a Topology). */
  pro: Member;
  /** Argues against it (an Agent or a Topology). */
  con: Member;
  /** Gives a structured verdict after each round, so it must be an Agent. */
  judge: Agent<unknown>;
  /** Rounds at most (default 3); the judge may stop earlier by declaring convergence. */
  maxLoops?: number;
  /** Validation failures sent back to the judge before its verdict counts as failed (default 2). */
  maxRepairs?: number;
  /**
   * The verdict's synthesis as a validated object of this `z.object(...)` (`result.finalOutput`):
   * the judge gives it in place of the prose synthesis, and `verdict.synthesis` holds its JSON.
   */
  outputType?: z.ZodType<TOutput>;
}

// A round's verdict (a typed synthesis as its JSON) and, with outputType, the synthesis object; or why there is none.
type JudgeOutcome = { winner: Verdict['winner']; verdict: Verdict; typed?: unknown } | { error: string };

/** What a DebateWithJudge run returns. */
export interface DebateWithJudgeResult<TOutput = string> extends TopologyResult {
  /** The synthesis of the last verdict (its JSON with `outputType`). */
  output: string;
  /** With `outputType`: the last verdict's synthesis as that object. */
  finalOutput?: TOutput;
  /** The last verdict given. */
  verdict: Verdict;
  rounds: DebateRound[];
  endedBy: 'converged' | 'maxLoops' | 'budget';
  interrupted: boolean;
  interruptionReason?: BudgetReason;
}

/**
 * Pro and con argue over a fixed proposition, round after round; after each round the judge
 * gives a verdict, and stops the debate early once it has converged (seed 001's DebateWithJudge).
 */
export class DebateWithJudge<TOutput = string> extends BaseTopology<DebateWithJudgeResult<TOutput>> {
  readonly type = 'DebateWithJudge';
  readonly name: string;
  readonly pro: Member;
  readonly con: Member;
  readonly judge: Agent<unknown>;
  readonly maxLoops: number;
  readonly #maxRepairs: number;
  // The judge's verdict schema: with outputType, its synthesis is the typed answer.
  readonly #verdictSchema: z.ZodObject;

  constructor(options: DebateWithJudgeOptions<TOutput>) {
    super();
    const owner = 'DebateWithJudge';
    this.name = options.name ?? 'debate-with-judge';
    const [pro, con, judge] = validateMembers([options.pro, options.con, options.judge], owner, {
      option: 'pro, con and judge',
      min: 3,
    });
    this.pro = pro!;
    this.con = con!;
    this.judge = requireAgent(owner, 'judge', judge!, 'the judge returns a structured verdict');
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 3, 1);
    const outputType = validateOutputType(options.outputType, owner);
    this.#verdictSchema = outputType
      ? verdictSchema.extend({
          synthesis: outputType.describe('The best answer on the proposition, drawing on both sides.'),
        })
      : verdictSchema;
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.withGuardrails(options);
  }

  /** Debates `proposition` for at most `maxLoops` rounds and returns the judge's last synthesis. */
  run(proposition: string, options: RunOptions = {}): Promise<DebateWithJudgeResult<TOutput>> {
    return runTopology<DebateWithJudgeResult<TOutput>>(
      this,
      { task: proposition },
      options,
      async (context) => {
        const debate = new Conversation();
        debate.add('user', `Proposition: ${proposition}`);
        const rounds: DebateRound[] = [];
        let verdict: Verdict | undefined;
        let finalOutput: TOutput | undefined;
        let endedBy: DebateWithJudgeResult<TOutput>['endedBy'] = 'maxLoops';
        let stop: BudgetExceededError | undefined;

        for (let loop = 1; loop <= this.maxLoops; loop++) {
          // 1. Pro argues, then con answers it. 2. The judge weighs the whole debate so far.
          // A budget stop partway keeps what the round has: the parts not reached say why.
          const round: Partial<DebateRound> = {};
          let judged: JudgeOutcome;
          try {
            round.pro = await this.#argue(this.pro, 'for', debate, context);
            round.con = await this.#argue(this.con, 'against', debate, context);
            judged = await this.#judge(debate, context);
          } catch (error) {
            if (!budgetStop(error)) throw error;
            stop = error as BudgetExceededError;
            endedBy = 'budget';
            if (round.pro) {
              const why = `not reached: ${errorMessage(stop)}`;
              rounds.push({
                pro: round.pro,
                con: round.con ?? { agent: memberName(this.con), error: why },
                verdict: { error: why },
              });
            }
            break;
          }
          const given = 'winner' in judged ? judged.verdict : judged;
          rounds.push({ pro: round.pro, con: round.con, verdict: given });
          context.emit({ type: 'debate.verdict', round: loop, verdict: given });
          if ('winner' in judged) {
            const current = judged.verdict;
            verdict = current;
            finalOutput = judged.typed as TOutput | undefined;
            debate.add('assistant', `Verdict: ${current.winner}. ${current.synthesis}`, this.judge.name);
            // 3. Converged: nothing new is being said; stop early.
            if (current.converged) {
              endedBy = 'converged';
              break;
            }
          }
        }
        if (!verdict) {
          if (stop) throw stop;
          throw noAnswer('DebateWithJudge: the judge gave no valid verdict in any round.');
        }
        return {
          output: verdict.synthesis,
          ...(finalOutput !== undefined && { finalOutput }),
          verdict,
          rounds,
          endedBy,
          interrupted: false,
          ...interruptionFields(stop?.reason),
        };
      },
    );
  }

  // One side's argument; its failure is recorded and the debate goes on. Budget and abort stop it.
  async #argue(
    side: Member,
    stance: 'for' | 'against',
    debate: Conversation,
    context: RunContext,
  ): Promise<Argument> {
    const agent = memberName(side);
    const input: Message[] = [
      ...debate.toMessages(agent),
      {
        role: 'user',
        content: `${agent}, argue ${stance} the proposition. Answer the other side's latest points; bring new arguments rather than repeating yours.`,
      },
    ];
    try {
      const { output } = await runMember(side, input, context);
      debate.add('assistant', output, agent);
      return { agent, output };
    } catch (error) {
      if (isRunStop(error)) throw error;
      return failure(agent, error);
    }
  }

  // The verdict (a typed synthesis as its JSON) and, with outputType, the synthesis object itself.
  async #judge(debate: Conversation, context: RunContext): Promise<JudgeOutcome> {
    const input: Message[] = [
      ...debate.toMessages(this.judge.name),
      {
        role: 'user',
        content: `Judge the debate so far. ${memberName(this.pro)} argues for, ${memberName(this.con)} against. Give the winner (pro, con or tie), your synthesis, your confidence, and whether the debate has converged.`,
      },
    ];
    try {
      // The synthesis is the run's answer: a verdict without one is asked for once more.
      return await nonEmptyAnswer(
        this.judge.name,
        context,
        async () => {
          const { object } = await this.judge.generateObject(this.#verdictSchema, input, {
            context,
            name: 'verdict',
            description: 'Give your verdict on the debate so far.',
            maxRepairs: this.#maxRepairs,
          });
          const given = object as Omit<Verdict, 'synthesis'> & { synthesis: unknown };
          const typed = typeof given.synthesis === 'string' ? undefined : given.synthesis;
          const synthesis = typed === undefined ? (given.synthesis as string) : JSON.stringify(typed);
          const verdict: Verdict = { ...given, synthesis };
          return {
            output: synthesis,
            winner: verdict.winner,
            verdict,
            ...(typed !== undefined && { typed }),
          };
        },
        undefined,
        // One forced model call (generateObject), no tools: asking it once more repeats nothing else.
        { repeatable: true },
      );
    } catch (error) {
      if (isRunStop(error)) throw error;
      return { error: errorMessage(error) };
    }
  }
}
