// The topologies the tests' worker processes run (`swarm-worker topologies.ts --queue ...`),
// configured by environment variables the tests set.
import { Agent, type Message, openaiModel, type Topology } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { historyItemSchema, Team } from '@swarm/handoff';
import { RedisSessionStore } from '../redis-session-store.js';

const worker = process.env.FIXTURE_WORKER ?? `pid ${process.pid}`;
const userTurns = (messages: Message[]) => messages.filter((message) => message.role === 'user');

const echo = new ScriptedModel([], {
  latencyMs: Number(process.env.FIXTURE_LATENCY_MS ?? 0),
  fallback: respond((request) => `done: ${userTurns(request.messages).at(-1)?.content} (${worker})`),
});

const team = (model: ScriptedModel | ReturnType<typeof openaiModel>) =>
  Team.swarm({ agents: { desk: new Agent({ name: 'desk', model }) }, entryAgent: 'desk' });

// Takes a second and a half: long enough to stop a worker in the middle of it.
const slow = new ScriptedModel([], {
  latencyMs: 1500,
  fallback: respond((request) => `done: ${userTurns(request.messages).at(-1)?.content} (${worker})`),
});

const topologies: Record<string, Topology> = { echo: team(echo), slow: team(slow) };

if (process.env.FIXTURE_MOCK_URL) {
  const model = openaiModel('mock-model', {
    baseURL: process.env.FIXTURE_MOCK_URL,
    apiKey: 'test',
    maxRetries: 0,
  });
  topologies.provider = team(model);
}

if (process.env.FIXTURE_REDIS_URL) {
  // Says which worker answered and how many user turns of the session it was shown.
  const sessionModel = new ScriptedModel([], {
    fallback: respond((request) => `${worker} saw ${userTurns(request.messages).length} messages`),
  });
  const sessions = new RedisSessionStore({
    connection: process.env.FIXTURE_REDIS_URL,
    itemSchema: historyItemSchema,
  });
  topologies.session = Team.swarm({
    agents: { desk: new Agent({ name: 'desk', model: sessionModel }) },
    entryAgent: 'desk',
    sessions,
  });
}

export default topologies;
