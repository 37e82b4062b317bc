import { Agent } from '@swarm/core';

/**
 * Copies of the agents whose instructions end with `rules` (swarms' `rules`: one collaboration
 * prompt every agent follows). The caller's agents are never changed.
 */
export function withRules(agents: readonly Agent[], rules: string): Agent[] {
  return agents.map(
    (a) =>
      new Agent({
        name: a.name,
        ...(a.description !== undefined && { description: a.description }),
        instructions: a.instructions ? `${a.instructions}\n\n${rules}` : rules,
        model: a.model,
        tools: [...a.tools],
        ...(a.temperature !== undefined && { temperature: a.temperature }),
        ...(a.maxTokens !== undefined && { maxTokens: a.maxTokens }),
        maxTurns: a.maxTurns,
        ...(a.toolTimeoutMs !== undefined && { toolTimeoutMs: a.toolTimeoutMs }),
      }),
  );
}
