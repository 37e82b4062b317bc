import {
  BaseTopology,
  ConfigError,
  describeZodError,
  type Message,
  nonEmptyAnswer,
  type RunContext,
  type RunOptions,
  type RunStream,
  runTopology,
  type TopologyResult,
  taskMessage,
  type Usage,
} from '@swarm/core';
import { z } from 'zod';
import { runTurn } from './agent-turn.js';
import { isPingPong } from './cycle-detector.js';
import type { HandoffInfo } from './handoff.js';
import { type HistoryItem, historyItemSchema, toMessages } from './history.js';
import type { SessionState } from './session-store.js';
import {
  type Member,
  type ResolvedSwarmOptions,
  resolveSwarmOptions,
  type SwarmOptions,
} from './swarm-options.js';

/** Why a swarm was cut short: two agents bouncing the conversation, or the handoff cap. */
export type SwarmInterruption = 'swarm:cycle_detected' | 'swarm:max_handoffs';

/** One handoff of a run: who passed the conversation to whom, and what they said. */
export type HandoffRecord = HandoffInfo;

/** Options of `team.run` / `team.stream`: the usual run options, plus the conversation to continue. */
export interface SwarmRunOptions extends RunOptions {
  /** Continues this conversation: its history carries over and it resumes with the last agent. */
  sessionId?: string;
}

/** What a swarm run returns: the answer, who gave it, the handoff path and the new history. */
export interface SwarmResult extends TopologyResult {
  output: string;
  /** The agent that gave the answer (and, in a session, gets the next message). */
  lastAgent: string;
  handoffs: HandoffRecord[];
  /** The history items this run added: the request, tool calls, texts and handoffs. */
  messages: HistoryItem[];
  usage: Usage;
  llmCalls: number;
  interrupted: boolean;
  interruptionReason?: SwarmInterruption;
}

/**
 * Peer agents with no manager: the active agent answers or hands the conversation to a peer with a
 * handoff tool; the first agent to answer without handing off gives the final answer.
 */
export class SwarmTeam extends BaseTopology<SwarmResult> {
  readonly type = 'Swarm';
  readonly name: string;
  readonly #options: ResolvedSwarmOptions;
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(options: SwarmOptions) {
    super();
    this.#options = resolveSwarmOptions(options);
    this.name = this.#options.name;
    this.withGuardrails(options);
  }

  /** Runs one user message through the swarm, continuing the session `options.sessionId` if given. */
  async run(task: string, options: SwarmRunOptions = {}): Promise<SwarmResult> {
    const { sessionId, ...runOptions } = options;
    if (typeof task !== 'string') throw new ConfigError('Swarm run: task must be a string.');
    if (sessionId === undefined) return this.#run(task, undefined, runOptions);
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new ConfigError('Swarm run: sessionId must be a non-empty string.');
    }
    return this.#oneAtATime(sessionId, () => this.#run(task, sessionId, runOptions));
  }

  /** Streams the run's events (with `model.delta` text where the provider streams); `result` resolves at the end. */
  override stream(task: string, options: SwarmRunOptions = {}): RunStream<SwarmResult> {
    return super.stream(task, options);
  }

  async #run(task: string, sessionId: string | undefined, options: RunOptions): Promise<SwarmResult> {
    // 1. Setup: the session's thread so far, and the agent that takes this message. Read before
    // the run opens: a store that fails starts no guardrail and no call.
    const session = sessionId === undefined ? undefined : await this.#options.sessions.get(sessionId);
    const past = session?.history ?? [];
    const request: HistoryItem = { type: 'request', content: task };
    const items: HistoryItem[] = [request];
    let active = this.#startingAgent(session);
    const start = { agent: active, task, ...(sessionId ? { sessionId } : {}) };
    return runTopology<SwarmResult>(
      this,
      start,
      options,
      async (context) => {
        let input = withAttachments(toMessages([...past, request], active), task, context);
        const path = [active];
        const handoffs: HandoffRecord[] = [];
        let interruption: SwarmInterruption | undefined;
        while (true) {
          // 2. Active turn: its own tools plus its handoff tools, unless a limit has taken those away.
          // A turn that answers (hands off to no one) with empty text is run once more, then fails.
          const turn = await nonEmptyAnswer(
            active,
            context,
            () => runTurn(this.#member(active), input, context, interruption === undefined),
            (t) => (t.handoff ? undefined : t.output),
          );
          items.push(...turn.items);
          // 4. Answer: the first agent that replies without handing off gives the final answer.
          if (!turn.handoff) {
            return {
              output: turn.output,
              lastAgent: active,
              handoffs,
              messages: items,
              interrupted: interruption !== undefined,
              ...(interruption ? { interruptionReason: interruption } : {}),
            };
          }
          // 3. Handoff: the turn ended at once; the target takes over, seeing the thread so far.
          const handoff: HandoffRecord = { from: active, ...turn.handoff };
          handoffs.push(handoff);
          path.push(handoff.to);
          context.emit({ type: 'swarm.handoff', agent: active, ...handoff });
          interruption = this.#limitReached(path, handoffs.length, context);
          const passed = this.#options.passFullHistory ? [...past, ...items] : [request, ...turn.items];
          input = withAttachments(await this.#inputFor(handoff, passed), task, context);
          active = handoff.to;
        }
      },
      {
        // The session keeps the run's thread only once its output guardrails passed.
        ...(sessionId !== undefined && {
          commit: (result: SwarmResult) =>
            this.#options.sessions.set(sessionId, {
              history: [...past, ...items],
              lastAgent: result.lastAgent,
            }),
        }),
        endEvent: (result) => ({ agent: result.lastAgent, interrupted: result.interrupted }),
        errorAgent: () => active,
      },
    );
  }

  #startingAgent(session: SessionState | undefined): string {
    const last = session?.lastAgent;
    const resume = this.#options.resumeLastAgent && last !== undefined && this.#options.members.has(last);
    return resume ? last : this.#options.entryAgent;
  }

  // A cycle or the cap stops the swarm: the agent just handed the conversation answers once more,
  // without handoff tools, so the user still gets an answer.
  #limitReached(path: string[], count: number, context: RunContext): SwarmInterruption | undefined {
    const agent = path.at(-1);
    if (this.#options.detectCycles && isPingPong(path)) {
      context.emit({ type: 'swarm.cycle_detected', agent, path: [...path] });
      return 'swarm:cycle_detected';
    }
    if (count >= this.#options.maxHandoffs) {
      context.emit({ type: 'swarm.max_handoffs', agent, maxHandoffs: this.#options.maxHandoffs });
      return 'swarm:max_handoffs';
    }
    return undefined;
  }

  async #inputFor(handoff: HandoffRecord, history: HistoryItem[]): Promise<Message[]> {
    const filter = this.#member(handoff.to).inputFilter;
    if (!filter) return toMessages(history, handoff.to);
    const shown = z
      .array(historyItemSchema)
      .safeParse(await filter(structuredClone(history), { ...handoff }));
    if (!shown.success) {
      throw new ConfigError(
        `handoff("${handoff.to}"): inputFilter must return an array of history items (${describeZodError(shown.error)}).`,
        { cause: shown.error },
      );
    }
    return toMessages(shown.data, handoff.to);
  }

  #member(name: string): Member {
    const member = this.#options.members.get(name);
    if (!member) throw new ConfigError(`Swarm "${this.name}": there is no agent named "${name}".`);
    return member;
  }

  // Runs of one session wait for each other, so that none starts from a history another is about
  // to replace.
  async #oneAtATime<R>(sessionId: string, run: () => Promise<R>): Promise<R> {
    const previous = this.#running.get(sessionId) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(run);
    this.#running.set(sessionId, current);
    try {
      return await current;
    } finally {
      if (this.#running.get(sessionId) === current) this.#running.delete(sessionId);
    }
  }
}

/** Builds teams of agents; `Team.swarm` is the handoff topology of the seed. */
export const Team = {
  /** A swarm of peer agents passing the conversation with handoff tools. */
  swarm(options: SwarmOptions): SwarmTeam {
    return new SwarmTeam(options);
  },
};

// The run's attachments go with this run's request wherever an agent's input shows it (the last
// plain user turn with the task's text), so the agent a handoff reaches sees them too.
function withAttachments(messages: Message[], task: string, context: RunContext): Message[] {
  if (context.attachments === undefined) return messages;
  const at = messages.findLastIndex((m) => m.role === 'user' && !m.name && m.content === task);
  if (at !== -1) messages[at] = taskMessage(task, context.attachments);
  return messages;
}
