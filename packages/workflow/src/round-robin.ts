import {
  BaseTopology,
  budgetStop,
  integerOption,
  type Member,
  type Message,
  memberTurn,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { type BudgetReason, interruptedBy, runStep, taskTurn } from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** Options of a RoundRobin. */
export interface RoundRobinOptions {
  name?: string;
  /** At least two agents or topologies, taking turns in this order. */
  agents: Member[];
  /** How many times every member speaks (default 1). */
  rounds?: number;
}

/** One turn of a round robin: who spoke, in which round (from 1), and what they said. */
export interface RoundRobinTurn {
  round: number;
  agent: string;
  output: string;
}

/** What a round robin returns: the last turn's output, and every turn in order. */
export interface RoundRobinResult extends TopologyResult {
  turns: RoundRobinTurn[];
}

/**
 * Members take turns in order for `rounds` rounds. Each sees the whole thread as typed turns: the
 * task, its own earlier turns as `assistant`, the others' as their named turns. The last turn is
 * the answer.
 */
export class RoundRobin extends BaseTopology<RoundRobinResult> {
  readonly type = 'RoundRobin';
  readonly name: string;
  readonly #agents: readonly Member[];
  readonly #rounds: number;

  constructor(options: RoundRobinOptions) {
    super();
    // With one member its own turn would close the thread, which some providers read as a prefill.
    this.#agents = validateMembers(options?.agents, 'RoundRobin', { min: 2 });
    this.name = nameOption('RoundRobin', options.name, 'round-robin');
    this.#rounds = integerOption('RoundRobin', 'rounds', options.rounds, 1, 1);
  }

  /** Runs `rounds` rounds of turns on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<RoundRobinResult> {
    checkTask('RoundRobin', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents, rounds: this.#rounds }, options, async (context) => {
      const turns: RoundRobinTurn[] = [];
      let interruption: BudgetReason | undefined;
      rounds: for (let round = 1; round <= this.#rounds; round++) {
        for (const member of this.#agents) {
          try {
            const step = await runStep(member, thread(task, turns, member.name), context);
            turns.push({ round, agent: member.name, output: step.output });
            interruption = step.interruption;
          } catch (error) {
            // The budget ends the discussion; the last turn taken is the answer.
            interruption = budgetStop(error);
            if (!interruption || turns.length === 0) throw error;
          }
          if (interruption) break rounds;
        }
      }
      return { output: turns.at(-1)!.output, turns, ...interruptedBy(interruption) };
    });
  }
}

/** The thread as `agent` sees it: the task, its own turns as `assistant`, the others' as named turns. */
export function thread(task: string, turns: readonly RoundRobinTurn[], agent: string): string | Message[] {
  if (turns.length === 0) return task;
  return [
    taskTurn(task),
    ...turns.map(
      (t): Message =>
        t.agent === agent ? { role: 'assistant', content: t.output } : memberTurn(t.agent, t.output),
    ),
  ];
}
