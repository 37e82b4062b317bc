import {
  type Agent,
  BaseTopology,
  type BudgetExceededError,
  type BudgetReason,
  budgetStop,
  ConfigError,
  Conversation,
  concurrencyOption,
  errorMessage,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  isAbort,
  isPause,
  type Member,
  type Message,
  mapSettled,
  numberOption,
  type RunContext,
  type RunOptions,
  runTopology,
  settledStop,
  type TopologyOutcome,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { z } from 'zod';
import { adjustForRecency, type Bid, clampScore, speakingOrder } from './bidding.js';
import { noAnswer } from './member-outcomes.js';
import { requireAgent } from './options.js';

/** The full bid: how much the agent wants the floor, and the message it would post. */
export const respondSchema = z.object({
  score: z
    .number()
    .describe('How much you want to speak next, from 0 (nothing to add) to 1 (must speak now).'),
  message: z.string().describe('The message you would post if you get the floor.'),
});

/** The cheap bid of `'intent'` bidding: the score and one line on what the agent would say. */
export const intentSchema = z.object({
  score: z
    .number()
    .describe('How much you want to speak next, from 0 (nothing to add) to 1 (must speak now).'),
  intent: z.string().describe('One line: what you would say if you get the floor.'),
});

/** How bids are asked for: the whole message with every bid (the seed), or score and intent first. */
export type Bidding = 'full' | 'intent';

/** How the bid prompt leans: towards keeping the discussion going, neutral, or towards silence. */
export type PromptBias = 'engage' | 'neutral' | 'reserved';

/** Options of a GroupChat. */
export interface GroupChatOptions extends GuardrailOptions {
  name?: string;
  /** The participants, at least two; Agents only (a bid is a forced function call). */
  agents: readonly Member[];
  /** A bid must be strictly above this (after the recency penalty) to speak: 0 to below 1 (default 0.5). */
  threshold?: number;
  /** Taken off the score of an agent among the last `recencyWindow` speakers (default 0.3). */
  recencyPenalty?: number;
  /** How many of the latest speakers are penalized (default 2). */
  recencyWindow?: number;
  /** The chat ends once this many messages are posted (default 12). */
  maxMessages?: number;
  /** `'full'` (default): every bid carries its message. `'intent'`: only the winner writes its message. */
  bidding?: Bidding;
  /** Leaning of the bid prompt (default `'engage'`, so a chat does not die after one message). */
  promptBias?: PromptBias;
  /** Bidders running at once (default all). */
  maxWorkers?: number;
  /** Validation failures sent back to a bidder before its bid counts as silence (default 2). */
  maxRepairs?: number;
}

/** One posted message. */
export interface ChatMessage {
  agent: string;
  content: string;
}

/** One round of bidding: every bid in input order, and who spoke (no one when the chat ended). */
export interface ChatRound {
  bids: Bid[];
  speaker?: string;
}

/** What a GroupChat run returns. */
export interface GroupChatResult extends TopologyResult {
  /** The last message posted; when nobody ever spoke, '' with `interruptionReason: 'no-speaker'`. */
  output: string;
  messages: ChatMessage[];
  rounds: ChatRound[];
  endedBy: 'threshold' | 'maxMessages' | 'budget';
  interrupted: boolean;
  /** A budget stop, or `'no-speaker'`: the first round had no bid above the threshold, so there is no answer. */
  interruptionReason?: BudgetReason | 'no-speaker';
}

const biasLines: Record<PromptBias, string> = {
  engage:
    'Bid high when you can move the discussion forward: add a fact, correct an error, answer an open point, or build on what was said. The chat ends as soon as nobody bids above the threshold, so do not let it end while the task is not fully resolved.',
  neutral: 'Bid by how much you have to add that has not been said.',
  reserved: 'Bid high only when you have something important that nobody has said; otherwise bid 0.',
};

/** The error of a bid whose message was blank: silence by choice, not a failed call. */
const BLANK_BID = 'the bid had no message';

/**
 * A meeting with no fixed turns: each round every agent privately bids for the floor with
 * `respond(score, message)`; the single highest bid above the threshold (after a recency
 * penalty) speaks; a round with no such bid ends the chat (seed 001, section 4).
 */
export class GroupChat extends BaseTopology<GroupChatResult> {
  readonly type = 'GroupChat';
  readonly name: string;
  readonly agents: readonly Agent<unknown>[];
  readonly threshold: number;
  readonly recencyPenalty: number;
  readonly recencyWindow: number;
  readonly maxMessages: number;
  readonly bidding: Bidding;
  readonly promptBias: PromptBias;
  readonly #maxWorkers: number;
  readonly #maxRepairs: number;

  constructor(options: GroupChatOptions) {
    super();
    const owner = 'GroupChat';
    this.name = options.name ?? 'group-chat';
    this.agents = validateMembers(options.agents, owner, { option: 'agents', min: 2 }).map((m, i) =>
      requireAgent(owner, `agents[${i}]`, m, 'a bidder must call respond({ score, message })'),
    );
    this.threshold = numberOption(owner, 'threshold', options.threshold, 0.5, 0, 1);
    // A bid must be strictly above the threshold and scores stop at 1: at 1 nobody could ever speak.
    if (this.threshold === 1) {
      throw new ConfigError(`${owner}: threshold must be below 1 (got 1): no bid can be above it.`);
    }
    this.recencyPenalty = numberOption(owner, 'recencyPenalty', options.recencyPenalty, 0.3, 0, 1);
    this.recencyWindow = integerOption(owner, 'recencyWindow', options.recencyWindow, 2, 0);
    this.maxMessages = integerOption(owner, 'maxMessages', options.maxMessages, 12, 1);
    this.bidding = oneOf(owner, 'bidding', options.bidding, ['full', 'intent'], 'full');
    this.promptBias = oneOf(
      owner,
      'promptBias',
      options.promptBias,
      ['engage', 'neutral', 'reserved'],
      'engage',
    );
    this.#maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    this.withGuardrails(options);
  }

  /** Runs rounds of bidding until no bid clears the threshold, `maxMessages` are posted, or the budget is spent. */
  run(task: string, options: RunOptions = {}): Promise<GroupChatResult> {
    return runTopology<GroupChatResult>(this, { task }, options, async (context) => {
      const conversation = new Conversation();
      conversation.add('user', task);
      const messages: ChatMessage[] = [];
      const rounds: ChatRound[] = [];
      const finish = (
        endedBy: GroupChatResult['endedBy'],
        stop?: BudgetExceededError,
      ): TopologyOutcome<GroupChatResult> => {
        if (stop && messages.length === 0) throw stop;
        // Nobody could bid at all (every bid call failed): that is a failure, not a quiet room.
        const first = rounds[0]?.bids ?? [];
        const failed = (b: Bid) => b.error !== undefined && b.error !== BLANK_BID;
        if (messages.length === 0 && first.length > 0 && first.every(failed)) {
          throw noAnswer(
            `GroupChat: every agent's bid failed, so no one could speak: ${first.map((b) => `${b.agent}: ${b.error}`).join('; ')}`,
          );
        }
        // A room that stayed silent has no answer: say so instead of returning '' as if it were one.
        const silent = messages.length === 0 && endedBy === 'threshold';
        return {
          output: messages.at(-1)?.content ?? '',
          messages,
          rounds,
          endedBy,
          interrupted: false,
          ...interruptionFields(stop?.reason),
          ...(silent && { interrupted: true, interruptionReason: 'no-speaker' as const }),
        };
      };

      while (messages.length < this.maxMessages) {
        // 1. Bid: every agent privately, at once; a failed bid is silence.
        const speakers = messages.map((m) => m.agent);
        const { bids, drafts, stop } = await this.#bids(conversation, speakers, context);
        const round: ChatRound = { bids };
        rounds.push(round);
        // A copy: a winner whose message then fails is marked silent in the round, not in the trace.
        context.emit({ type: 'groupchat.bid', round: rounds.length, bids: structuredClone(bids) });
        if (stop) return finish('budget', stop);

        // 2. Floor: the single highest adjusted bid strictly above the threshold speaks.
        const order = speakingOrder(bids, this.threshold, speakers);
        const spoken = await this.#speak(order, drafts, conversation, context);
        if ('stop' in spoken) return finish('budget', spoken.stop);
        if (!spoken.message) return finish('threshold');

        // 3. Post: only the winner's message reaches everyone.
        round.speaker = spoken.message.agent;
        messages.push(spoken.message);
        conversation.add('assistant', spoken.message.content, spoken.message.agent);
        context.emit({
          type: 'groupchat.message',
          agent: spoken.message.agent,
          content: spoken.message.content,
        });
      }
      return finish('maxMessages');
    });
  }

  async #bids(conversation: Conversation, speakers: string[], context: RunContext) {
    const schema = this.bidding === 'full' ? respondSchema : intentSchema;
    const settled = await mapSettled(
      this.agents,
      (agent) =>
        agent.generateObject(schema, this.#bidTurns(conversation, agent), {
          context,
          name: 'respond',
          description:
            this.bidding === 'full'
              ? 'Bid for the floor: your score and the message you would post.'
              : 'Bid for the floor: your score and one line on what you would say.',
          instructions: `${agent.instructions ? `${agent.instructions}\n\n` : ''}${this.#rules()}`,
          maxRepairs: this.#maxRepairs,
        }),
      { concurrency: this.#maxWorkers, signal: context.signal },
    );
    const stop = settledStop(settled);
    const drafts = new Map<string, string>();
    const bids = settled.map((outcome, i): Bid => {
      const agent = this.agents[i]!.name;
      if (outcome.status === 'rejected')
        return { agent, score: 0, adjusted: 0, error: errorMessage(outcome.reason) };
      const object = outcome.value.object as { score: number; message?: string; intent?: string };
      const text = (object.message ?? object.intent ?? '').trim();
      if (text === '') return { agent, score: 0, adjusted: 0, error: BLANK_BID };
      drafts.set(agent, text);
      const score = clampScore(object.score);
      const adjusted = adjustForRecency(agent, score, speakers, this.recencyPenalty, this.recencyWindow);
      return { agent, score, adjusted, ...(object.intent !== undefined && { intent: text }) };
    });
    return { bids, drafts, stop };
  }

  // The winner's message: its bid's message, or (intent bidding) the one it writes now. A winner
  // whose message fails is silent, and the next bid in speaking order takes the floor.
  async #speak(
    order: Bid[],
    drafts: Map<string, string>,
    conversation: Conversation,
    context: RunContext,
  ): Promise<{ message?: ChatMessage } | { stop: BudgetExceededError }> {
    for (const bid of order) {
      if (this.bidding === 'full') return { message: { agent: bid.agent, content: drafts.get(bid.agent)! } };
      const agent = this.agents.find((a) => a.name === bid.agent)!;
      try {
        const written = await agent.run(
          [
            ...conversation.toMessages(agent.name),
            {
              role: 'user',
              content: `You have the floor. You meant to say: ${bid.intent}\nWrite your message to the group now.`,
            },
          ],
          { context },
        );
        if (written.output.trim() !== '') return { message: { agent: bid.agent, content: written.output } };
        bid.error = 'the message written after winning was empty';
      } catch (error) {
        if (isAbort(error) || isPause(error)) throw error;
        if (budgetStop(error)) return { stop: error as BudgetExceededError };
        bid.error = `winning message failed: ${errorMessage(error)}`;
      }
      context.emit({ type: 'warning', agent: bid.agent, message: bid.error });
    }
    return {};
  }

  #bidTurns(conversation: Conversation, agent: Agent<unknown>): Message[] {
    return [
      ...conversation.toMessages(agent.name),
      { role: 'user', content: `${agent.name}, it is time to bid: call respond.` },
    ];
  }

  #rules(): string {
    const what = this.bidding === 'full' ? 'the message you would post' : 'one line on what you would say';
    return `You are in a group chat with ${this.agents.map((a) => a.name).join(', ')}. Each round, everyone privately bids for the floor by calling respond with a score from 0 to 1 and ${what}. Only the single highest bid above ${this.threshold} speaks; the others are discarded. Recent speakers' bids are lowered by ${this.recencyPenalty}. ${biasLines[this.promptBias]}`;
  }
}

function oneOf<T extends string>(
  owner: string,
  option: string,
  value: T | undefined,
  accepted: readonly T[],
  fallback: T,
): T {
  const chosen = value ?? fallback;
  if (!accepted.includes(chosen)) {
    throw new ConfigError(
      `${owner}: ${option} must be one of ${accepted.map((a) => `'${a}'`).join(', ')} (got ${JSON.stringify(chosen)}).`,
    );
  }
  return chosen;
}
