import { Agent, configuredModel, type Model } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { historyItemSchema, Team } from '@swarm/handoff';
import { RedisSessionStore } from '@swarm/queue';

// What every worker process runs: `swarm-worker src/topologies.ts --queue support` loads this
// module and runs the jobs of the queue with these topologies, by name.

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const worker = process.env.WORKER_NAME ?? `worker ${process.pid}`;

// With no model configured, a scripted one says which worker answered and how much of the
// conversation it was shown, so the demo runs offline.
function offlineModel(): Model {
  return new ScriptedModel([], {
    latencyMs: 50,
    fallback: respond((request) => {
      const asked = request.messages.filter((message) => message.role === 'user');
      return `${worker} answers "${asked.at(-1)?.content}" (${asked.length} message(s) in this conversation so far)`;
    }),
  });
}

const model = configuredModel() ?? offlineModel();

/** A one-agent help desk whose conversations live in Redis, so any worker can continue any of them. */
const helpdesk = Team.swarm({
  agents: {
    desk: new Agent({ name: 'desk', instructions: 'You are a concise support agent.', model }),
  },
  entryAgent: 'desk',
  sessions: new RedisSessionStore({ connection: redisUrl, itemSchema: historyItemSchema }),
});

export const topologies = { helpdesk };
