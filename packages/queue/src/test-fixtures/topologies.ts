// The topologies the tests' worker processes run (`swarm-worker topologies.ts --queue ...`),
// configured by environment variables the tests set.
import { Agent, type Message, openaiModel, runTopology, type Topology, tool } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { historyItemSchema, type SwarmRunOptions, Team } from '@swarm/handoff';
import { Redis } from 'ioredis';
import { z } from 'zod';
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

if (process.env.FIXTURE_MOCK_URL && process.env.FIXTURE_REDIS_URL) {
  // A refund desk on the mock provider (which says which worker asked, in a header): the desk looks
  // the order up (a tool whose every run is counted in Redis), answers, saves the session turn, then
  // a second agent summarizes the answer: a model call after the session was saved.
  const model = openaiModel('mock-model', {
    baseURL: process.env.FIXTURE_MOCK_URL,
    apiKey: 'test',
    maxRetries: 0,
    defaultHeaders: { 'x-fixture-worker': worker },
  });
  const redis = new Redis(process.env.FIXTURE_REDIS_URL);
  const lookup = tool({
    name: 'lookup',
    description: 'Looks an order up.',
    parameters: z.object({ order: z.string() }),
    execute: async ({ order }) => {
      await redis.incr(`fixture:lookup:${order}`);
      return `order ${order} is paid`;
    },
  });
  const desk = Team.swarm({
    agents: { desk: new Agent({ name: 'desk', model, tools: [lookup] }) },
    entryAgent: 'desk',
    sessions: new RedisSessionStore({
      connection: process.env.FIXTURE_REDIS_URL,
      itemSchema: historyItemSchema,
    }),
  });
  const summarizer = new Agent({ name: 'summarizer', model });
  const durableDesk = { type: 'DurableDesk', name: 'durable-desk' };
  topologies.durable = {
    ...durableDesk,
    run: (task, options: SwarmRunOptions = {}) => {
      const { sessionId, ...rest } = options;
      return runTopology(durableDesk, { task }, rest, async (context) => {
        const answer = await desk.run(task, { parent: context, ...(sessionId ? { sessionId } : {}) });
        const summary = await summarizer.run(`Summarize: ${answer.output}`, { parent: context });
        return { output: `${answer.output} | ${summary.output}` };
      });
    },
    stream() {
      throw new Error('not used');
    },
  };
}

export default topologies;
