import {
  type Agent,
  BaseTopology,
  type BudgetReason,
  ConfigError,
  concurrencyOption,
  integerOption,
  interruptionFields,
  isTopology,
  type Member,
  type Message,
  mapSettled,
  memberName,
  memberTurn,
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
import {
  describeFailures,
  failure,
  type MemberFailure,
  noAnswer,
  writeUnlessStopped,
} from './member-outcomes.js';
import { requireMember } from './options.js';
import { normalizeAnswer, type TallyEntry, tallyVotes, type Vote } from './tally.js';

/** The vote every Agent voter casts (a forced, validated function call). */
export const voteSchema = z.object({
  answer: z
    .string()
    .describe(
      'Your answer alone, as short as it can be (a number, a name, yes or no), so equal answers count together.',
    ),
  confidence: z.number().min(0).max(1).describe('How sure you are, from 0 to 1.'),
  reasoning: z.string().describe('Why, briefly.'),
});

/** Options of a MajorityVoting. */
export interface MajorityVotingOptions {
  name?: string;
  /** The voters. An Agent votes with `{ answer, confidence, reasoning }`; a Topology's output is its answer. */
  agents: Member[];
  /** Writes the final text from the votes and the tally; without it the winning answer is the output. */
  consensusAgent?: Member;
  /** Maps an answer to the key it is counted under (default `normalizeAnswer`). */
  normalize?: (answer: string) => string;
  /** Voters running at once (default all). */
  maxWorkers?: number;
  /** Validation failures sent back to a voter before its vote counts as failed (default 2). */
  maxRepairs?: number;
}

/** What a MajorityVoting run returns. */
export interface MajorityVotingResult extends TopologyResult {
  /** The answer with the most votes (ties broken as `tallyVotes` states). */
  winner: string;
  /** The votes cast, in input order. */
  votes: Vote[];
  /** Voters whose vote failed, in input order; they are not counted. */
  failures: MemberFailure[];
  tally: TallyEntry[];
  interrupted: boolean;
  interruptionReason?: BudgetReason;
}

/**
 * Every voter answers the task independently; answers are normalized and counted, the most
 * frequent wins, and an optional consensus agent writes the final text (seed 001's MajorityVoting).
 */
export class MajorityVoting extends BaseTopology<MajorityVotingResult> {
  readonly type = 'MajorityVoting';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly consensusAgent: Member | undefined;
  readonly #normalize: (answer: string) => string;
  readonly #maxWorkers: number;
  readonly #maxRepairs: number;

  constructor(options: MajorityVotingOptions) {
    super();
    const owner = 'MajorityVoting';
    this.name = options.name ?? 'majority-voting';
    this.agents = validateMembers(options.agents, owner, { option: 'agents', min: 1 });
    this.consensusAgent =
      options.consensusAgent === undefined
        ? undefined
        : requireMember(owner, 'consensusAgent', options.consensusAgent);
    if (options.normalize !== undefined && typeof options.normalize !== 'function') {
      throw new ConfigError(`${owner}: normalize must be a function (answer: string) => string.`);
    }
    this.#normalize = options.normalize ?? normalizeAnswer;
    this.#maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
  }

  /** Collects the votes concurrently, counts them, and (with a consensus agent) writes the final text. */
  run(task: string, options: RunOptions = {}): Promise<MajorityVotingResult> {
    return runTopology<MajorityVotingResult>(this, { task }, options, async (context) => {
      // 1. Vote: every voter at once; a failing voter is recorded and not counted.
      const settled = await mapSettled(this.agents, (voter) => this.#vote(voter, task, context), {
        concurrency: this.#maxWorkers,
        signal: context.signal,
      });
      const stop = settledStop(settled);
      const votes: Vote[] = [];
      const failures: MemberFailure[] = [];
      settled.forEach((outcome, i) => {
        const agent = memberName(this.agents[i]!);
        if (outcome.status === 'rejected') failures.push(failure(agent, outcome.reason));
        // A blank answer (after normalizing) is no vote: it would count as an answer of its own.
        else if (this.#normalize(outcome.value.answer) === '')
          failures.push({ agent, error: 'the vote had no answer' });
        else votes.push(outcome.value);
      });
      if (votes.length === 0) {
        if (stop) throw stop;
        throw noAnswer(`MajorityVoting: every voter failed (${describeFailures(failures)}).`);
      }

      // 2. Count: normalized answers, most votes first, ties broken by the stated rule.
      const tally = tallyVotes(votes, this.#normalize);
      const winner = tally[0]!.answer;
      context.emit({ type: 'voting.tally', winner, tally });

      // 3. Consensus: the consensus agent writes the final text, unless the budget is spent.
      const consensus = this.consensusAgent;
      const final = consensus
        ? await writeUnlessStopped(stop, winner, () =>
            nonEmptyAnswer(memberName(consensus), context, () =>
              runMember(consensus, consensusInput(task, votes, tally), context),
            ),
          )
        : { output: winner, stop };
      return {
        output: final.output,
        winner,
        votes,
        failures,
        tally,
        interrupted: false,
        ...interruptionFields(final.stop?.reason),
      };
    });
  }

  async #vote(voter: Member, task: string, context: RunContext): Promise<Vote> {
    const agent = memberName(voter);
    if (isTopology(voter)) {
      const { output } = await runMember(voter, task, context);
      return { agent, answer: output, reasoning: '' };
    }
    const { object } = await (voter as Agent).generateObject(voteSchema, task, {
      context,
      name: 'vote',
      description: 'Cast your vote: your answer to the task, how sure you are, and why.',
      maxRepairs: this.#maxRepairs,
    });
    return { agent, ...object };
  }
}

function consensusInput(task: string, votes: Vote[], tally: TallyEntry[]): Message[] {
  const counts = tally.map((t) => `"${t.answer}": ${t.count} (${t.agents.join(', ')})`).join('\n');
  return [
    { role: 'user', content: task },
    ...votes.map((v) =>
      memberTurn(
        v.agent,
        `Answer: ${v.answer}${v.confidence === undefined ? '' : `\nConfidence: ${v.confidence}`}${v.reasoning ? `\nReasoning: ${v.reasoning}` : ''}`,
      ),
    ),
    {
      role: 'user',
      content: `The votes above were counted:\n${counts}\nThe majority answer is "${tally[0]!.answer}". Write the final answer to the task: state the majority answer and explain it, drawing on the voters' reasoning.`,
    },
  ];
}
