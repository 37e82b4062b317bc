import {
  BaseTopology,
  type GuardrailOptions,
  integerOption,
  interruptionFields,
  type Member,
  type RunOptions,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';
import { handOn, runInTurn, runStep } from './member-run.js';
import { checkTask, nameOption } from './options.js';

/** Options of a RoundRobin. */
export interface RoundRobinOptions extends GuardrailOptions {
  /** Its name in traces and as another topology's member (default `'round-robin'`). */
  name?: string;
  /** At least two agents or topologies, taking turns in this order. */
  agents: readonly Member[];
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
    this.withGuardrails(options);
  }

  /** Runs `rounds` rounds of turns on `task`. */
  async run(task: string, options: RunOptions = {}): Promise<RoundRobinResult> {
    checkTask('RoundRobin', task);
    const agents = this.#agents.map((a) => a.name);
    return runTopology(this, { task, agents, rounds: this.#rounds }, options, async (context) => {
      const members = this.#agents;
      // The budget ends the discussion; the last turn taken is the answer.
      const { done: turns, interruption } = await runInTurn<RoundRobinTurn>(
        this.#rounds * members.length,
        async (i, before) => {
          const member = members[i % members.length]!;
          // With two members or more, the thread never ends with the member's own turn.
          const step = await runStep(member, handOn(task, before, member.name), context);
          const turn = { round: Math.floor(i / members.length) + 1, agent: member.name, output: step.output };
          return { value: turn, interruption: step.interruption };
        },
      );
      return { output: turns.at(-1)!.output, turns, ...interruptionFields(interruption) };
    });
  }
}
