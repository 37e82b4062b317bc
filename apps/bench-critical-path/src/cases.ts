import {
  CouncilAsAJudge,
  DebateWithJudge,
  GroupChat,
  LLMCouncil,
  MajorityVoting,
  MixtureOfAgents,
  majorityVotingDescriptor,
} from '@swarm/collective';
import { Agent, fnv1a, type Model, type ModelRequest, messageText } from '@swarm/core';
import { ForestSwarm, forestLocalEmbedder, Tree, TreeAgent } from '@swarm/forest';
import { Team } from '@swarm/handoff';
import { HeavySwarm, HierarchicalSwarm, PlannerWorkerSwarm } from '@swarm/hierarchy';
import { AutoSwarmBuilder, MultiAgentRouter, SwarmRouter } from '@swarm/router';
import { CoordinatedTreeOfThoughts, TreeOfThoughts } from '@swarm/tot';
import {
  AgentRearrange,
  BatchedGridWorkflow,
  ConcurrentWorkflow,
  concurrentWorkflowDescriptor,
  GraphWorkflow,
  RoundRobin,
  SequentialWorkflow,
  sequentialWorkflowDescriptor,
} from '@swarm/workflow';
import { type CallLog, latencyEmbedder, latencyModel, type Override } from './call-log.js';

/** The simulated latencies of the benchmark. */
export interface Latencies {
  modelMs: number;
  embedMs: number;
}

/** One measured run: what the case runs, on which tasks. */
export interface Case {
  name: string;
  /** The run's tasks (the critical path looks for them in each call's input). */
  tasks: string[];
  /** Builds the topology over models and embedders that record into `log`; returns one run. */
  build: (log: CallLog, latencies: Latencies) => () => Promise<unknown>;
}

const task = 'Write a short market brief on electric bicycles.';
const tasks = [
  'How do I file taxes for my Delaware corporation?',
  'Which stocks suit a cautious retirement portfolio?',
  'What deductions can a small bakery claim?',
  'How are dividends from index funds taxed?',
];

const agents = (model: Model, ...names: string[]) => names.map((name) => new Agent({ name, model }));

/** A single-task case: `make` builds the topology from a model factory; the run is `run(task)`. */
function single(
  name: string,
  make: (
    model: (override?: Override) => Model,
    latencies: Latencies,
    log: CallLog,
  ) => { run: (task: string) => Promise<unknown> },
  caseTask = task,
): Case {
  return {
    name,
    tasks: [caseTask],
    build: (log, latencies) => {
      const topology = make((override) => latencyModel(log, latencies.modelMs, override), latencies, log);
      return () => topology.run(caseTask);
    },
  };
}

// A function call answering the forced function with these arguments.
const forced =
  (name: string, args: (request: ModelRequest) => Record<string, unknown>): Override =>
  (request) => {
    const choice = request.toolChoice;
    if (typeof choice !== 'object' || choice.name !== name) return undefined;
    return { text: '', toolCalls: [{ name, arguments: args(request) }] };
  };

// A number from 0 to 1 fixed by the text (the same request, the same number).
const spread = (text: string) => (fnv1a(text) % 101) / 100;
const lastTurn = (request: ModelRequest) => {
  const last = request.messages.at(-1);
  return last ? messageText(last) : '';
};
const forcedSchema = (request: ModelRequest) => {
  const choice = request.toolChoice;
  return typeof choice === 'object' ? request.tools?.find((t) => t.name === choice.name) : undefined;
};

// A search that branches as a real one does: as many distinct thoughts as asked for, and scores
// spread over their range by the text they judge, instead of the schema sample's one thought and 0.
// The coordinated Planner asks "Propose N distinct ..."; TreeOfThoughts says "Exactly N distinct".
export const branching: Override = (request) => {
  const tool = forcedSchema(request);
  if (!tool) return undefined;
  const properties = (tool.parameters.properties ?? {}) as Record<string, { description?: string }>;
  const text = lastTurn(request);
  if ('thoughts' in properties) {
    const asked = /(?:Propose|Exactly) (\d+) distinct/.exec(
      `${text} ${properties.thoughts?.description ?? ''}`,
    );
    const count = Number(asked?.[1] ?? 3);
    const step = (i: number) => `Step ${i + 1} of ${fnv1a(text).toString(16)}.`;
    const tot = JSON.stringify(properties.thoughts).includes('isFinal');
    const thoughts = Array.from({ length: count }, (_, i) =>
      tot ? { thought: step(i), isFinal: false } : step(i),
    );
    return { text: '', toolCalls: [{ name: tool.name, arguments: { thoughts } }] };
  }
  if ('score' in properties && 'terminate' in properties) {
    const score = Math.round(spread(text) * 10);
    return {
      text: '',
      toolCalls: [{ name: tool.name, arguments: { score, terminate: false, reasons: ['r'] } }],
    };
  }
  if ('score' in properties && 'critique' in properties) {
    return { text: '', toolCalls: [{ name: tool.name, arguments: { critique: 'c', score: spread(text) } }] };
  }
  return undefined;
};

// Every bid wants the floor, so the chat runs its default length.
const eagerBids: Override = (request) => {
  const tool = forcedSchema(request);
  if (tool?.name !== 'respond') return undefined;
  const args = { score: 0.9, message: 'I have more to add.', intent: 'Add one more point.' };
  return { text: '', toolCalls: [{ name: 'respond', arguments: args }] };
};

// LLMCouncil's ranking must list every offered id once: answer with the ids the schema offers.
const rankOffered = forced('rank', (request) => {
  const ranking = request.tools?.find((t) => t.name === 'rank')?.parameters.properties as
    | Record<string, { items?: { enum?: unknown[] } }>
    | undefined;
  return { ranking: ranking?.ranking?.items?.enum ?? [] };
});

function forest(model: (override?: Override) => Model, latencies: Latencies, log: CallLog): ForestSwarm {
  const agent = (name: string, systemPrompt: string) => new TreeAgent({ name, systemPrompt, model: model() });
  return new ForestSwarm({
    name: 'advice',
    embedder: latencyEmbedder(log, latencies.embedMs, forestLocalEmbedder()),
    trees: [
      new Tree({
        name: 'Finance',
        agents: [
          agent('Tax Expert', 'Corporate taxation, tax filing and deductions.'),
          agent('Stock Analyst', 'Stock markets, dividends and portfolios.'),
        ],
      }),
    ],
  });
}

function router(model: Model): SwarmRouter {
  return new SwarmRouter({
    agents: agents(model, 'researcher', 'writer'),
    swarmType: 'SequentialWorkflow',
    topologies: [sequentialWorkflowDescriptor, concurrentWorkflowDescriptor, majorityVotingDescriptor],
  });
}

/** Every exported topology at its defaults (only the required options given), and the two batched runs. */
export const cases: Case[] = [
  single('ForestSwarm', (model, latencies, log) => forest(model, latencies, log), tasks[0]),
  {
    name: 'ForestSwarm.batchedRun (4 tasks)',
    tasks,
    build: (log, latencies) => {
      const swarm = forest((override) => latencyModel(log, latencies.modelMs, override), latencies, log);
      return () => swarm.batchedRun(tasks);
    },
  },
  single('TreeOfThoughts', (model) => new TreeOfThoughts({ model: model(branching) }).asTopology()),
  single('CoordinatedTreeOfThoughts', (model) => new CoordinatedTreeOfThoughts({ model: model(branching) })),
  single('Team.swarm (handoff)', (model) =>
    Team.swarm({
      agents: {
        triage: new Agent({ name: 'triage', instructions: 'Route the customer.', model: model() }),
        billing: new Agent({ name: 'billing', instructions: 'Handle refunds.', model: model() }),
      },
      entryAgent: 'triage',
    }),
  ),
  single(
    'HierarchicalSwarm',
    (model) => new HierarchicalSwarm({ director: model(), agents: agents(model(), 'researcher', 'writer') }),
  ),
  single(
    'PlannerWorkerSwarm',
    (model) => new PlannerWorkerSwarm({ planner: model(), workers: agents(model(), 'w1', 'w2') }),
  ),
  single('HeavySwarm', (model) => new HeavySwarm({ model: model() })),
  single(
    'MixtureOfAgents',
    (model) =>
      new MixtureOfAgents({
        agents: agents(model(), 'ada', 'bob'),
        aggregator: new Agent({ name: 'agg', model: model() }),
      }),
  ),
  single('MajorityVoting', (model) => new MajorityVoting({ agents: agents(model(), 'a', 'b', 'c') })),
  single(
    'LLMCouncil',
    (model) =>
      new LLMCouncil({
        members: agents(model(rankOffered), 'ada', 'bob', 'cy'),
        chairman: new Agent({ name: 'chair', model: model() }),
      }),
  ),
  single('CouncilAsAJudge', (model) => new CouncilAsAJudge({ model: model() })),
  single('GroupChat', (model) => new GroupChat({ agents: agents(model(eagerBids), 'ada', 'bob', 'cyrus') })),
  single(
    'DebateWithJudge',
    (model) =>
      new DebateWithJudge({
        pro: new Agent({ name: 'pro', model: model() }),
        con: new Agent({ name: 'con', model: model() }),
        judge: new Agent({ name: 'judge', model: model() }),
      }),
  ),
  single(
    'SequentialWorkflow',
    (model) => new SequentialWorkflow({ agents: agents(model(), 'researcher', 'writer', 'editor') }),
  ),
  single(
    'ConcurrentWorkflow',
    (model) => new ConcurrentWorkflow({ agents: agents(model(), 'optimist', 'pessimist', 'realist') }),
  ),
  single(
    'AgentRearrange',
    (model) =>
      new AgentRearrange({
        agents: agents(model(), 'researcher', 'writer', 'critic', 'editor'),
        flow: 'researcher -> writer, critic -> editor',
      }),
  ),
  single('RoundRobin', (model) => new RoundRobin({ agents: agents(model(), 'alice', 'bob', 'carol') })),
  single('GraphWorkflow', (model) => {
    const [plan, frontend, backend, review] = agents(model(), 'plan', 'frontend', 'backend', 'review');
    return new GraphWorkflow({
      nodes: { plan: plan!, frontend: frontend!, backend: backend!, review: review! },
      edges: [
        ['plan', 'frontend'],
        ['plan', 'backend'],
        ['frontend', 'review'],
        ['backend', 'review'],
      ],
    });
  }),
  single(
    'BatchedGridWorkflow',
    (model) => new BatchedGridWorkflow({ agents: agents(model(), 'translator', 'summarizer', 'critic') }),
  ),
  single(
    'MultiAgentRouter',
    (model) => new MultiAgentRouter({ agents: agents(model(), 'tax', 'stocks'), model: model() }),
  ),
  single('SwarmRouter', (model) => router(model())),
  {
    name: 'SwarmRouter.batchedRun (4 tasks)',
    tasks,
    build: (log, latencies) => {
      const swarm = router(latencyModel(log, latencies.modelMs));
      return () => swarm.batchedRun(tasks);
    },
  },
  single(
    'AutoSwarmBuilder',
    (model) =>
      new AutoSwarmBuilder({
        model: model(),
        topologies: [sequentialWorkflowDescriptor, concurrentWorkflowDescriptor],
      }),
  ),
];
