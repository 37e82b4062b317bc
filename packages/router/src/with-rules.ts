import type { Agent } from '@swarm/core';

/**
 * Copies of the agents whose instructions end with `rules` (swarms' `rules`: one collaboration
 * prompt every agent follows), every other option kept. The caller's agents are never changed.
 */
export function withRules<TOutput>(agents: readonly Agent<TOutput>[], rules: string): Agent<TOutput>[] {
  return agents.map((a) =>
    a.clone({ instructions: a.instructions ? `${a.instructions}\n\n${rules}` : rules }),
  );
}
