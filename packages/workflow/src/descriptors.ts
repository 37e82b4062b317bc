import { type Agent, ConfigError, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { AgentRearrange } from './agent-rearrange.js';
import { BatchedGridWorkflow } from './batched-grid-workflow.js';
import { ConcurrentWorkflow } from './concurrent-workflow.js';
import { flowMembers, parseFlow } from './flow-parser.js';
import { GraphWorkflow } from './graph-workflow.js';
import { RoundRobin } from './round-robin.js';
import { SequentialWorkflow } from './sequential-workflow.js';

const maxWorkers = z.number().int().min(1).optional();
// The shared-context options of the pipelines (SequentialWorkflow, AgentRearrange), as swarms has them.
const pipeline = {
  context: z.enum(['full', 'previous']).optional(),
  maxLoops: z.number().int().min(1).optional(),
  teamAwareness: z.boolean().optional(),
};

// An agent's worst case is its whole tool loop: `maxTurns` calls.
const callsOf = (agents: readonly Agent<unknown>[]) => agents.reduce((sum, agent) => sum + agent.maxTurns, 0);

/** Config of `sequentialWorkflowDescriptor`: the agents run in the order given; what they read, and how many passes. */
export interface SequentialWorkflowConfig {
  context?: 'full' | 'previous';
  maxLoops?: number;
  teamAwareness?: boolean;
}

/** Lets a router build a SequentialWorkflow from agents, in the order given. */
export const sequentialWorkflowDescriptor: TopologyDescriptor<SequentialWorkflowConfig> = {
  type: 'SequentialWorkflow',
  description:
    "A fixed pipeline: each agent works on the task after the one before it, given the task and every earlier agent's output; the last agent's output is the answer. For work that goes through known stages in a known order, such as research, then draft, then edit.",
  minAgents: 1,
  configSchema: z.strictObject(pipeline),
  worstCase: (agents, config = {}) => ({ maxCalls: callsOf(agents) * (config.maxLoops ?? 1) }),
  create: (agents, config = {}) => new SequentialWorkflow({ ...config, agents }),
};

/** Config of `concurrentWorkflowDescriptor`; `aggregator` names the agent that answers from the others' outputs. */
export interface ConcurrentWorkflowConfig {
  onError?: 'store' | 'raise';
  /** The name of one of the agents: it aggregates instead of working on the task. */
  aggregator?: string;
  maxWorkers?: number;
}

/** Lets a router build a ConcurrentWorkflow; an agent named by `aggregator` aggregates. */
export const concurrentWorkflowDescriptor: TopologyDescriptor<ConcurrentWorkflowConfig> = {
  type: 'ConcurrentWorkflow',
  description:
    'Every agent answers the same task independently and at once; the answers are kept in the order of the agents, and an optional aggregator agent answers the task from them. For independent perspectives on one question, or the same job done by several specialists, quickly.',
  minAgents: 1,
  configSchema: z.strictObject({
    onError: z.enum(['store', 'raise']).optional(),
    aggregator: z.string().optional(),
    maxWorkers,
  }),
  worstCase: (agents) => ({ maxCalls: callsOf(agents) }),
  create(agents, config = {}) {
    const { aggregator: name, ...options } = config;
    if (name === undefined) return new ConcurrentWorkflow({ ...options, agents });
    const aggregator = agents.find((a) => a.name === name);
    if (!aggregator) {
      throw new ConfigError(
        `ConcurrentWorkflow descriptor: aggregator "${name}" is not one of the agents (${agents.map((a) => a.name).join(', ')}).`,
      );
    }
    return new ConcurrentWorkflow({ ...options, aggregator, agents: agents.filter((a) => a !== aggregator) });
  },
};

/** Config of `agentRearrangeDescriptor`: the flow over the agents' names (no `H`: a spec cannot hold a function). */
export interface AgentRearrangeConfig {
  flow: string;
  maxWorkers?: number;
  context?: 'full' | 'previous';
  maxLoops?: number;
  teamAwareness?: boolean;
}

/** Lets a router build an AgentRearrange from agents and a flow over their names. */
export const agentRearrangeDescriptor: TopologyDescriptor<AgentRearrangeConfig> = {
  type: 'AgentRearrange',
  description:
    'Agents arranged by a flow such as "researcher -> writer, critic -> editor": steps run in order, agents within a step run in parallel, and each step gets the task and every earlier step\'s outputs. For pipelines that mix sequential stages and parallel work, with agents repeated where needed.',
  minAgents: 1,
  configSchema: z.strictObject({ flow: z.string(), maxWorkers, ...pipeline }),
  worstCase(agents, config) {
    const byName = new Map(agents.map((a) => [a.name, a]));
    const placed = flowMembers(parseFlow(config.flow, new Set(byName.keys())));
    return { maxCalls: callsOf(placed.map((name) => byName.get(name)!)) * (config.maxLoops ?? 1) };
  },
  create: (agents, config) => new AgentRearrange({ ...config, agents }),
};

/** Config of `roundRobinDescriptor`. */
export interface RoundRobinConfig {
  rounds?: number;
}

/** Lets a router build a RoundRobin: the agents take turns, in the order given. */
export const roundRobinDescriptor: TopologyDescriptor<RoundRobinConfig> = {
  type: 'RoundRobin',
  description:
    'Agents take turns in a fixed order for a number of rounds, each seeing the whole discussion so far; the last turn is the answer. For iterative refinement or discussion among peers where everyone should be heard equally.',
  minAgents: 2,
  configSchema: z.strictObject({ rounds: z.number().int().min(1).optional() }),
  worstCase: (agents, config) => ({ maxCalls: (config?.rounds ?? 1) * callsOf(agents) }),
  create: (agents, config = {}) => new RoundRobin({ ...config, agents }),
};

/** Config of `batchedGridWorkflowDescriptor`. */
export interface BatchedGridWorkflowConfig {
  maxWorkers?: number;
}

/** Lets a router build a BatchedGridWorkflow: agent i on task i (or every agent on one task). */
export const batchedGridWorkflowDescriptor: TopologyDescriptor<BatchedGridWorkflowConfig> = {
  type: 'BatchedGridWorkflow',
  description:
    'Agent i works on task i, all at once, and every outcome is kept in order, failures included; given a single task, every agent works on it. For batches of different tasks matched to different agents, such as one translator per language.',
  minAgents: 1,
  configSchema: z.strictObject({ maxWorkers }),
  worstCase: (agents) => ({ maxCalls: callsOf(agents) }),
  create: (agents, config = {}) => new BatchedGridWorkflow({ ...config, agents }),
};

/** Config of `graphWorkflowDescriptor`: edges between the agents, named by their names. */
export interface GraphWorkflowConfig {
  edges?: [string, string][];
  maxWorkers?: number;
}

/** Lets a router build a GraphWorkflow whose nodes are the agents, by name. */
export const graphWorkflowDescriptor: TopologyDescriptor<GraphWorkflowConfig> = {
  type: 'GraphWorkflow',
  description:
    'Agents on a directed acyclic graph: each runs once all the agents before it are done, in parallel with every other ready agent, given their outputs; the agents at the end give the answer. For work with real dependencies, where independent parts should run at the same time.',
  minAgents: 1,
  configSchema: z.strictObject({ edges: z.array(z.tuple([z.string(), z.string()])).optional(), maxWorkers }),
  worstCase: (agents) => ({ maxCalls: callsOf(agents) }),
  create(agents, config = {}) {
    const nodes = Object.fromEntries(agents.map((agent) => [agent.name, agent]));
    if (Object.keys(nodes).length !== agents.length) {
      throw new ConfigError(
        'GraphWorkflow descriptor: two agents share a name; graph nodes are named by agent name.',
      );
    }
    return new GraphWorkflow({ ...config, nodes });
  },
};
