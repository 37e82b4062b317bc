import type { TopologyResult, Usage } from '@swarm/core';
import type {
  CoordinatedThoughtNode,
  CoordinatedThoughtNodeJSON,
  ThoughtStatus,
} from './coordinated-node.js';
import type { RoleName } from './coordinated-options.js';

/**
 * Why the exploration loop ended: no node left active (every path stopped by an evaluator, or no
 * thought to continue it), the active paths reached `maxDepth`, or the budget. When no new node
 * became active because calls failed (the `warning` events say why): `plannerFailed`, a Planner
 * call failed and its node is still `active` but unexpanded; else `evaluationFailed`, no evaluator
 * could judge a new node, which stays `generated`.
 */
export type ExplorationEnd = 'noActiveNodes' | 'maxDepth' | 'budget' | 'plannerFailed' | 'evaluationFailed';

/** Which rule chose the synthesized nodes: the score threshold, the top-N fallback, or none (nothing scored). */
export type SynthesisBasis = 'threshold' | 'topN' | 'none';

/** A node the answer was synthesized from, with its path from the first strategy. */
export interface SynthesizedNode {
  id: string;
  score: number;
  depth: number;
  status: ThoughtStatus;
  thought: string;
  path: string[];
}

/** What one role cost in a run. */
export interface RoleCost {
  usage: Usage;
  llmCalls: number;
}

/** `CoordinatedTreeOfThoughtsResult.toJSON()`: every field as plain data, the whole tree under `tree`. */
export interface CoordinatedTreeOfThoughtsResultJSON {
  task: string;
  answer: string;
  output: string;
  synthesized: SynthesizedNode[];
  synthesisBasis: SynthesisBasis;
  endedBy: ExplorationEnd;
  researched: boolean;
  nodeCount: number;
  roles: Record<RoleName, RoleCost>;
  usage: Usage;
  llmCalls: number;
  interrupted: boolean;
  interruptionReason?: string;
  tree: CoordinatedThoughtNodeJSON;
}

/** What a coordinated run found and what it cost. */
export interface CoordinatedTreeOfThoughtsResult extends TopologyResult {
  task: string;
  /** The Synthesizer's final answer (the same as `output`). */
  answer: string;
  /** The nodes the answer was synthesized from, best first, each with its path. */
  synthesized: SynthesizedNode[];
  synthesisBasis: SynthesisBasis;
  /** Why exploration ended; `'maxDepth'` and `'budget'` mean a bound cut it short, `'plannerFailed'` and `'evaluationFailed'` failed calls. */
  endedBy: ExplorationEnd;
  /** Whether a Researcher ran (it is skipped when it has no tool). */
  researched: boolean;
  /** The root (the problem); every node with its status, score, research and evaluations is below it. */
  root: CoordinatedThoughtNode;
  /** Nodes in the tree, the root included. */
  nodeCount: number;
  /** Usage and calls of each role, in role order; together they are the run's `usage` and `llmCalls`. */
  roles: Record<RoleName, RoleCost>;
  interrupted: boolean;
  interruptionReason?: string;
  toJSON(): CoordinatedTreeOfThoughtsResultJSON;
}

/**
 * Adds `toJSON` (the whole tree as plain data) to a run's outcome. It reads the result it is called
 * on, so the totals `runTopology` adds afterwards (`usage`, `llmCalls`) are in it.
 */
export function withToJSON(
  fields: Omit<CoordinatedTreeOfThoughtsResult, 'toJSON' | 'usage' | 'llmCalls'>,
): Omit<CoordinatedTreeOfThoughtsResult, 'usage' | 'llmCalls'> {
  return {
    ...fields,
    toJSON(this: CoordinatedTreeOfThoughtsResult): CoordinatedTreeOfThoughtsResultJSON {
      return {
        task: this.task,
        answer: this.answer,
        output: this.output,
        synthesized: this.synthesized.map((n) => ({ ...n, path: [...n.path] })),
        synthesisBasis: this.synthesisBasis,
        endedBy: this.endedBy,
        researched: this.researched,
        nodeCount: this.nodeCount,
        roles: Object.fromEntries(
          Object.entries(this.roles).map(([role, cost]) => [
            role,
            { usage: { ...cost.usage }, llmCalls: cost.llmCalls },
          ]),
        ) as Record<RoleName, RoleCost>,
        usage: { ...this.usage },
        llmCalls: this.llmCalls,
        interrupted: this.interrupted,
        ...(this.interruptionReason !== undefined && { interruptionReason: this.interruptionReason }),
        tree: this.root.toJSON(),
      };
    },
  };
}
