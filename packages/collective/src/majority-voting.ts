import {
  Agent,
  BaseTopology,
  type BudgetReason,
  ConfigError,
  concurrencyOption,
  type GuardrailOptions,
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
  type TopologyOutcome,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { z } from 'zod';
import {
  describeFailures,
  failure,
  type MemberAnswer,
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

/**
 * How MajorityVoting decides: `'tally'` counts short structured answers (the most frequent wins);
 * `'consensus'` (swarms' users) has free-text answers weighed by a consensus agent, in rounds.
 */
export type VotingMode = 'tally' | 'consensus';

/** One round of consensus mode: every voter's free-text answer, and the consensus written from them. */
export interface ConsensusRound {
  answers: MemberAnswer[];
  failures: MemberFailure[];
  /** Absent when the budget stopped the round before the consensus was written. */
  consensus?: string;
}

/** Options of a MajorityVoting. */
export interface MajorityVotingOptions extends GuardrailOptions {
  name?: string;
  /** `'tally'` (default): structured votes, counted. `'consensus'`: free-text answers, weighed by the consensus agent. */
  mode?: VotingMode;
  /** Consensus mode: rounds of answers and consensus; from the second, each voter refines its answer seeing the others' and the consensus (default 1). */
  maxLoops?: number;
  /** The voters. An Agent votes with `{ answer, confidence, reasoning }`; a Topology's output is its answer. */
  agents: readonly Member[];
  /**
   * Writes the final text from the votes and the tally; without it the winning answer is the output.
   * Consensus mode needs one: by default an agent on the first Agent voter's model.
   */
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
  mode: VotingMode;
  /** Consensus mode: every round, in order (empty in tally mode). */
  rounds: ConsensusRound[];
}

const consensusInstructions =
  'You are the consensus agent. You weigh several independent answers to one task: where they agree, where they differ and which reasons hold, and you write the one best answer the evidence supports.';

/**
 * Every voter answers the task independently; answers are normalized and counted, the most
 * frequent wins, and an optional consensus agent writes the final text (seed 001's MajorityVoting).
 */
export class MajorityVoting extends BaseTopology<MajorityVotingResult> {
  readonly type = 'MajorityVoting';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly consensusAgent: Member | undefined;
  readonly mode: VotingMode;
  readonly maxLoops: number;
  readonly #normalize: (answer: string) => string;
  readonly #maxWorkers: number;
  readonly #maxRepairs: number;

  constructor(options: MajorityVotingOptions) {
    super();
    const owner = 'MajorityVoting';
    this.name = options.name ?? 'majority-voting';
    this.agents = validateMembers(options.agents, owner, { option: 'agents', min: 1 });
    if (options.mode !== undefined && options.mode !== 'tally' && options.mode !== 'consensus') {
      throw new ConfigError(
        `${owner}: mode must be 'tally' or 'consensus' (got ${JSON.stringify(options.mode)}).`,
      );
    }
    this.mode = options.mode ?? 'tally';
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 1, 1);
    if (this.mode === 'tally' && options.maxLoops !== undefined && this.maxLoops > 1) {
      throw new ConfigError(`${owner}: maxLoops is for mode 'consensus'; a tally counts one round of votes.`);
    }
    this.consensusAgent =
      options.consensusAgent === undefined
        ? this.mode === 'consensus'
          ? defaultConsensusAgent(owner, this.agents)
          : undefined
        : requireMember(owner, 'consensusAgent', options.consensusAgent);
    if (options.normalize !== undefined && typeof options.normalize !== 'function') {
      throw new ConfigError(`${owner}: normalize must be a function (answer: string) => string.`);
    }
    this.#normalize = options.normalize ?? normalizeAnswer;
    this.#maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.withGuardrails(options);
  }

  /** Collects the votes concurrently, counts them, and (with a consensus agent) writes the final text. */
  run(task: string, options: RunOptions = {}): Promise<MajorityVotingResult> {
    if (this.mode === 'consensus') {
      return runTopology<MajorityVotingResult>(this, { task, mode: this.mode }, options, (context) =>
        this.#consensus(task, context),
      );
    }
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
        mode: this.mode,
        rounds: [],
      };
    });
  }

  // Consensus mode: each round, every voter answers in free text (from the second round seeing the
  // others' answers and the last consensus), then the consensus agent weighs the answers.
  async #consensus(task: string, context: RunContext): Promise<TopologyOutcome<MajorityVotingResult>> {
    const consensus = this.consensusAgent!;
    const rounds: ConsensusRound[] = [];
    let stop: ReturnType<typeof settledStop>;
    for (let loop = 1; loop <= this.maxLoops && !stop; loop++) {
      const previous = rounds.at(-1);
      // 1. Answer: every voter at once; a failing voter is recorded and left out.
      const settled = await mapSettled(
        this.agents,
        (voter) => runMember(voter, refineInput(task, memberName(voter), previous), context),
        { concurrency: this.#maxWorkers, signal: context.signal },
      );
      stop = settledStop(settled);
      const round: ConsensusRound = { answers: [], failures: [] };
      settled.forEach((outcome, i) => {
        const agent = memberName(this.agents[i]!);
        if (outcome.status === 'rejected') round.failures.push(failure(agent, outcome.reason));
        else if (outcome.value.output.trim() === '')
          round.failures.push({ agent, error: 'the answer was empty' });
        else round.answers.push({ agent, output: outcome.value.output });
      });
      if (round.answers.length === 0) {
        if (previous) break;
        if (stop) throw stop;
        throw noAnswer(`MajorityVoting: every voter failed (${describeFailures(round.failures)}).`);
      }
      rounds.push(round);
      context.emit({ type: 'voting.round', round: loop, answers: round.answers.length });
      // 2. Weigh: the consensus agent writes the consensus from this round's answers.
      const fallback = previous?.consensus ?? round.answers[0]!.output;
      const written = await writeUnlessStopped(stop, fallback, () =>
        runMember(consensus, weighInput(task, round.answers), context),
      );
      stop = written.stop;
      if (!stop) round.consensus = written.output;
    }
    const last = rounds.at(-1)!;
    const output = last.consensus ?? rounds.at(-2)?.consensus ?? last.answers[0]!.output;
    return {
      output,
      winner: output,
      votes: last.answers.map((a) => ({ agent: a.agent, answer: a.output, reasoning: '' })),
      failures: last.failures,
      tally: [],
      interrupted: false,
      ...interruptionFields(stop?.reason),
      mode: this.mode,
      rounds,
    };
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

// Swarms builds its consensus agent itself; ours runs on the first Agent voter's model.
function defaultConsensusAgent(owner: string, voters: readonly Member[]): Agent {
  const first = voters.find((v): v is Agent => !isTopology(v));
  if (!first) {
    throw new ConfigError(`${owner}: mode 'consensus' needs a consensusAgent when no voter is an Agent.`);
  }
  const taken = new Set(voters.map(memberName));
  const name = taken.has('consensus') ? 'consensus (head)' : 'consensus';
  return new Agent({ name, model: first.model, instructions: consensusInstructions });
}

// A voter's input in consensus mode: the task, then (from the second round) every answer of the last
// round (its own as its assistant turn) and the consensus, and a request to refine.
function refineInput(task: string, self: string, previous: ConsensusRound | undefined): string | Message[] {
  if (!previous) return task;
  return [
    { role: 'user', content: task },
    ...previous.answers.map(
      (a): Message =>
        a.agent === self ? { role: 'assistant', content: a.output } : memberTurn(a.agent, a.output),
    ),
    ...(previous.consensus === undefined ? [] : [memberTurn('consensus', previous.consensus)]),
    {
      role: 'user',
      content:
        'Above are the answers of the last round and the consensus written from them. Give your answer to the task again, refined: keep what holds, fix what does not.',
    },
  ];
}

// The consensus agent's input: the task, every answer as its voter's turn, and what to do with them.
function weighInput(task: string, answers: readonly MemberAnswer[]): Message[] {
  return [
    { role: 'user', content: task },
    ...answers.map((a) => memberTurn(a.agent, a.output)),
    {
      role: 'user',
      content:
        'Weigh the answers above: where they agree, where they differ and whose reasons hold. Write the one consensus answer to the task.',
    },
  ];
}
