import type { Agent, WorstCase } from '@swarm/core';

/** What the worst case of a swarm depends on: who may hand off to whom, and the limits. */
export interface SwarmWorstCaseInput {
  /** The peers, by name. */
  agents: ReadonlyMap<string, Pick<Agent, 'maxTurns'>>;
  entryAgent: string;
  handoffs?: Record<string, string[]>;
  maxHandoffs?: number;
  detectCycles?: boolean;
  resumeLastAgent?: boolean;
}

/**
 * The most model calls one swarm run can make. Every turn may take its agent's `maxTurns` calls
 * (the last one a handoff), and a run is at most `1 + maxHandoffs` turns: after the cap (or a
 * detected ping-pong) the agent just handed the conversation answers once more without handoff
 * tools. So the bound is `(1 + maxHandoffs) * maxTurns` when every agent can hand off and shares
 * `maxTurns`; this computes the exact maximum over the walks the handoff map and cycle detection
 * allow, starting at the entry agent or (with `resumeLastAgent`, in a session) any agent it reaches.
 */
export function swarmWorstCase(input: SwarmWorstCaseInput): WorstCase {
  const names = [...input.agents.keys()];
  const turns = (name: string) => input.agents.get(name)!.maxTurns;
  const targets = new Map(
    names.map((name) => [
      name,
      input.handoffs ? (input.handoffs[name] ?? []) : names.filter((n) => n !== name),
    ]),
  );
  const maxHandoffs = input.maxHandoffs ?? 8;
  const detectCycles = input.detectCycles ?? true;
  // A walk's state: the agent whose turn it is, the one before it, and how long the tail of the
  // walk has alternated between those two (cycle detection stops a run at six).
  const memo = new Map<string, number>();
  // The most calls from `current`'s turn on, with `left` handoffs still allowed.
  const best = (current: string, previous: string | undefined, alternating: number, left: number): number => {
    const key = [left, alternating, current, previous ?? ''].join('\u0000');
    const known = memo.get(key);
    if (known !== undefined) return known;
    let next = 0;
    if (left > 0) {
      for (const target of targets.get(current) ?? []) {
        const tail = target === previous ? alternating + 1 : 2;
        const final = left === 1 || (detectCycles && tail >= 6);
        next = Math.max(next, final ? turns(target) : best(target, current, tail, left - 1));
      }
    }
    const calls = turns(current) + next;
    memo.set(key, calls);
    return calls;
  };
  const starts = input.resumeLastAgent === false ? [input.entryAgent] : reachable(input.entryAgent, targets);
  if (maxHandoffs > 1_000 || names.length ** 2 * 5 * maxHandoffs > 1_000_000) {
    // Too many walks to go through: the plain bound still holds, since no turn passes its maxTurns.
    return { maxCalls: (1 + maxHandoffs) * Math.max(...names.map(turns)) };
  }
  return { maxCalls: Math.max(...starts.map((start) => best(start, undefined, 1, maxHandoffs))) };
}

// The entry agent and every agent a chain of handoffs can reach from it.
function reachable(entry: string, targets: ReadonlyMap<string, string[]>): string[] {
  const seen = new Set([entry]);
  for (const name of seen) for (const target of targets.get(name) ?? []) seen.add(target);
  return [...seen];
}
