/** A node as `toJSON` writes it: every field but `parent`, so a tree serializes without cycles. */
export interface ThoughtNodeJSON {
  id: number;
  content: string;
  depth: number;
  isFinal: boolean;
  score: number | null;
  evaluation: string | null;
  pruned: boolean;
  steps: string[];
  children: ThoughtNodeJSON[];
}

/**
 * One reasoning step in the search tree. The root is the empty step at depth 0; every other node
 * continues its parent's path by one step.
 */
export class ThoughtNode {
  /** Unique within one search, in creation order (the root is 0); events name nodes by it. */
  readonly id: number;
  /** The reasoning step; empty for the root. */
  readonly content: string;
  /** Steps from the root (the root is 0). */
  readonly depth: number;
  /** The node this step continues from; `null` for the root. Left out of `toJSON` to avoid cycles. */
  readonly parent: ThoughtNode | null;
  /** Whether this step completes the task (flagged by the generator, or at `maxDepth`). */
  readonly isFinal: boolean;
  /** Evaluation from 0 to 1, or `null` until evaluated. */
  score: number | null = null;
  /** The evaluator's critique, or the vote tally. */
  evaluation: string | null = null;
  /** Whether the score fell below `valueThreshold`: never expanded, never an answer. */
  pruned = false;
  /** Candidate next steps generated from this node. */
  readonly children: ThoughtNode[] = [];

  constructor(fields: {
    id: number;
    content: string;
    depth: number;
    parent: ThoughtNode | null;
    isFinal: boolean;
  }) {
    this.id = fields.id;
    this.content = fields.content;
    this.depth = fields.depth;
    this.parent = fields.parent;
    this.isFinal = fields.isFinal;
  }

  /** The steps on the path from the root to this node (the root contributes none). */
  get steps(): string[] {
    const steps: string[] = [];
    for (let node: ThoughtNode | null = this; node?.parent; node = node.parent) steps.unshift(node.content);
    return steps;
  }

  /** This node and its subtree as plain data. */
  toJSON(): ThoughtNodeJSON {
    return {
      id: this.id,
      content: this.content,
      depth: this.depth,
      isFinal: this.isFinal,
      score: this.score,
      evaluation: this.evaluation,
      pruned: this.pruned,
      steps: this.steps,
      children: this.children.map((child) => child.toJSON()),
    };
  }
}

/** A final step that cleared the threshold: the search may answer from it. */
export function isSolution(node: ThoughtNode): boolean {
  return node.isFinal && !node.pruned && node.score !== null;
}

/** A scored, unpruned step that does not finish the task: a path still worth expanding. */
export function isOpen(node: ThoughtNode): boolean {
  return !node.isFinal && !node.pruned && node.score !== null;
}

/** Best first: higher score, then a finished step before an unfinished one, then generation order. */
export function byPromise(a: ThoughtNode, b: ThoughtNode): number {
  return (b.score ?? -1) - (a.score ?? -1) || Number(b.isFinal) - Number(a.isFinal) || a.id - b.id;
}

/**
 * The most promising partial path when no solution was found: the highest-scoring unpruned node
 * (deeper first on ties), else the highest-scoring pruned one; `null` if nothing was evaluated.
 */
export function bestPartialNode(root: ThoughtNode): ThoughtNode | null {
  const evaluated: ThoughtNode[] = [];
  const walk = (node: ThoughtNode) => {
    for (const child of node.children) {
      if (child.score !== null) evaluated.push(child);
      walk(child);
    }
  };
  walk(root);
  const rank = (a: ThoughtNode, b: ThoughtNode) =>
    Number(a.pruned) - Number(b.pruned) || b.score! - a.score! || b.depth - a.depth || a.id - b.id;
  return evaluated.sort(rank)[0] ?? null;
}
