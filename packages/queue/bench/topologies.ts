// The topology the benchmark's worker processes run: a one-agent team on a scripted model that
// answers after BENCH_LATENCY_MS (default 20) milliseconds, like a fast provider.
import { Agent } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { Team } from '@swarm/handoff';

/** The benchmark's team; the in-process baseline builds the same one. */
export function benchTeam(latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 20)) {
  const model = new ScriptedModel([], {
    latencyMs,
    fallback: respond((request) => `done: ${request.messages.at(-1)?.content}`),
  });
  return Team.swarm({ agents: { desk: new Agent({ name: 'desk', model }) }, entryAgent: 'desk' });
}

export const topologies = { bench: benchTeam() };
