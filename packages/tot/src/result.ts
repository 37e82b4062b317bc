import type { TopologyResult, Usage } from '@swarm/core';
import type { ThoughtNode, ThoughtNodeJSON } from './thought-node.js';

/** `TreeOfThoughtsResult.toJSON()`: every field as plain data, with the whole tree under `tree`. */
export interface TreeOfThoughtsResultJSON {
  task: string;
  answer: string;
  output: string;
  solved: boolean;
  steps: string[];
  /** The id, depth, score and content of the node the answer was written from (find it in `tree`). */
  bestNode: { id: number; depth: number; score: number | null; content: string } | null;
  nodesExpanded: number;
  llmCalls: number;
  replayedCalls: number;
  liveCalls: number;
  usage: Usage;
  interrupted: boolean;
  interruptionReason?: string;
  tree: ThoughtNodeJSON;
}

/** What one search found and what it cost; also the `Topology` result of `search` and `stream`. */
export interface TreeOfThoughtsResult extends TopologyResult {
  task: string;
  /** The final answer written from the best path. */
  answer: string;
  /** Whether the search reached a final step that cleared `valueThreshold`. */
  solved: boolean;
  /** The reasoning steps on the best path (empty when `bestNode` is `null`). */
  steps: string[];
  /** The node the answer was written from; `null` if no candidate was ever evaluated. */
  bestNode: ThoughtNode | null;
  /** The root of the search tree. */
  root: ThoughtNode;
  /** How many nodes had candidates generated from them. */
  nodesExpanded: number;
  /** Model calls of this search, the answer and failed calls included. */
  llmCalls: number;
  /** Of `llmCalls`, how many were answered from the run's journal. */
  replayedCalls: number;
  /** Of `llmCalls`, how many went to the model. */
  liveCalls: number;
  /** Token usage of this search's calls. */
  usage: Usage;
  /** True when the budget stopped the search early; the answer was written from what it had. */
  interrupted: boolean;
  /** `'budget:calls'` or `'budget:tokens'` when interrupted. */
  interruptionReason?: string;
  toJSON(): TreeOfThoughtsResultJSON;
}

/** Builds the result object, whose `toJSON` serializes the whole tree. */
export function treeOfThoughtsResult(fields: Omit<TreeOfThoughtsResult, 'toJSON'>): TreeOfThoughtsResult {
  return {
    ...fields,
    toJSON(): TreeOfThoughtsResultJSON {
      const best = fields.bestNode;
      return {
        task: fields.task,
        answer: fields.answer,
        output: fields.output,
        solved: fields.solved,
        steps: [...fields.steps],
        bestNode: best && { id: best.id, depth: best.depth, score: best.score, content: best.content },
        nodesExpanded: fields.nodesExpanded,
        llmCalls: fields.llmCalls,
        replayedCalls: fields.replayedCalls,
        liveCalls: fields.liveCalls,
        usage: { ...fields.usage },
        interrupted: fields.interrupted,
        ...(fields.interruptionReason !== undefined && { interruptionReason: fields.interruptionReason }),
        tree: fields.root.toJSON(),
      };
    },
  };
}
