import type { UIMessage, UIMessageChunk } from 'ai';

/**
 * Where a text or tool part comes from, as `providerMetadata.swarm` of a text part and
 * `toolMetadata` of a tool part: the agent, its run, and the run's place in the run tree.
 */
export type SwarmPartOrigin = {
  agent?: string;
  runId: string;
  /** Names of the runs from the outermost to this one (topology types, or agent names). */
  path: string[];
  /** The tool call id the model gave, for a tool part (its UI `toolCallId` is made unique in the message). */
  toolCallId?: string;
};

/**
 * One topology run of the tree (the outermost, and every topology nested in it: one called as a
 * tool, a workflow step or a team member that is a topology), as the `data-swarm-run` part with
 * the run's id: it is sent when the run starts and again, under the same id, when it ends.
 */
export interface SwarmRunData {
  runId: string;
  /** The enclosing run, for a nested run. */
  parentRunId?: string;
  /** The enclosing run's tool call (its UI `toolCallId`) that started this run, when a tool did. */
  parentToolCallId?: string;
  /** Names of the runs from the outermost to this one. */
  path: string[];
  /** The topology type (`'SequentialWorkflow'`); absent for a lone agent's run. */
  topology?: string;
  /** `paused`: it waits for a person's decisions on its tool calls in `approval-requested` state. */
  status: 'running' | 'done' | 'failed' | 'paused';
  /** The run's answer, once done. */
  output?: string;
  /** What failed, once failed. */
  error?: string;
  /** The ids of the calls it waits for (each a tool part's `approval.id`), once paused. */
  pending?: string[];
}

/**
 * One turn of one agent, as the `data-swarm-agent` part: sent when it starts, again when it ends.
 * An agent called as a tool (`agent.asTool()`) runs nested without a run part of its own: its
 * turn names the parent run and the tool call that started it.
 */
export interface SwarmAgentData {
  agent: string;
  runId: string;
  path: string[];
  parentRunId?: string;
  /** The enclosing run's tool call (its UI `toolCallId`) that started this agent, when a tool did. */
  parentToolCallId?: string;
  status: 'running' | 'done' | 'failed' | 'paused';
  error?: string;
}

/** The run's final answer and totals, as the `data-swarm-result` part, the last part of the message. */
export interface SwarmResultData {
  output: string;
  /** The validated object of a run with a typed result, when the result has one. */
  finalOutput?: unknown;
  llmCalls?: number;
  usage?: {
    inputTokens: number;
    outputTokens: number;
    cachedTokens: number;
    reasoningTokens: number;
    totalTokens: number;
  };
  interrupted?: boolean;
  interruptionReason?: string;
}

/** The data parts `toUIMessageStream` sends, by name: `data-swarm-run`, `data-swarm-agent`, `data-swarm-result`. */
export type SwarmUIDataTypes = {
  'swarm-run': SwarmRunData;
  'swarm-agent': SwarmAgentData;
  'swarm-result': SwarmResultData;
};

/** The UI message a swarm run becomes: `useChat<SwarmUIMessage>()` types its data parts. */
export type SwarmUIMessage = UIMessage<unknown, SwarmUIDataTypes>;

/** A chunk of the UI message stream of a swarm run. */
export type SwarmUIMessageChunk = UIMessageChunk<unknown, SwarmUIDataTypes>;
