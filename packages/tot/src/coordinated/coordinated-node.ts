import { describeZodError } from '@swarm/core';
import { z } from 'zod';

/**
 * Where a node is in the seed's workflow: `generated` (validated and in the tree), `evaluated`
 * (scored, not chosen to continue), `active` (chosen to continue: expanded, or waiting for it),
 * `terminatedEarly` (an evaluator recommended stopping this path).
 */
export type ThoughtStatus = 'generated' | 'evaluated' | 'active' | 'terminatedEarly';

/** Every status, in workflow order. */
export const thoughtStatuses = ['generated', 'evaluated', 'active', 'terminatedEarly'] as const;

/** Which specialist judged a node. */
export type EvaluatorRole = 'analyzer' | 'critic';

/** One evaluator's validated verdict on a node (the evaluation schema, plus who gave it). */
export interface ThoughtEvaluation {
  evaluator: EvaluatorRole;
  /** 0 = dead end, 10 = highly promising. */
  score: number;
  /** Whether the evaluator recommends stopping this path. */
  terminate: boolean;
  reasons: string[];
}

/** A node as `toJSON` writes it: every field but `parent`, so a tree serializes without cycles. */
export interface CoordinatedThoughtNodeJSON {
  id: string;
  parentId: string | null;
  thought: string;
  depth: number;
  status: ThoughtStatus;
  score: number | null;
  research: string | null;
  evaluations: ThoughtEvaluation[];
  expanded: boolean;
  /** The thoughts from the first strategy down to this node (the root's problem is not repeated). */
  path: string[];
  children: CoordinatedThoughtNodeJSON[];
}

/**
 * One thought of a coordinated Tree of Thoughts. The root holds the problem (depth 0); every other
 * node is a strategy or a next thought the Planner proposed from its parent.
 */
export class CoordinatedThoughtNode {
  /** The root is `root`; a child's id is its parent's id and its index in the Planner's list (`root-0-1`). */
  readonly id: string;
  readonly thought: string;
  readonly depth: number;
  /** `null` for the root. Left out of `toJSON` to avoid cycles (see `parentId`). */
  readonly parent: CoordinatedThoughtNode | null;
  status: ThoughtStatus;
  /** Mean of the evaluators' scores (0 to 10); `null` until at least one evaluator answered. */
  score: number | null = null;
  /** What the Researcher found; `null` when it did not run (no tools) or failed. */
  research: string | null = null;
  readonly evaluations: ThoughtEvaluation[] = [];
  /** Whether the Planner was asked for this node's next thoughts. */
  expanded = false;
  readonly children: CoordinatedThoughtNode[] = [];

  constructor(fields: {
    id: string;
    thought: string;
    depth: number;
    parent: CoordinatedThoughtNode | null;
    status: ThoughtStatus;
  }) {
    this.id = fields.id;
    this.thought = fields.thought;
    this.depth = fields.depth;
    this.parent = fields.parent;
    this.status = fields.status;
  }

  /** The parent's id; `null` for the root. */
  get parentId(): string | null {
    return this.parent?.id ?? null;
  }

  /** Whether an evaluator recommended stopping this path. */
  get terminationRecommended(): boolean {
    return this.evaluations.some((e) => e.terminate);
  }

  /** The thoughts from the first strategy down to this node (empty for the root). */
  get path(): string[] {
    const path: string[] = [];
    for (let node: CoordinatedThoughtNode | null = this; node?.parent; node = node.parent) {
      path.unshift(node.thought);
    }
    return path;
  }

  /** This node and every node below it, depth first, in creation order. */
  *walk(): Generator<CoordinatedThoughtNode> {
    yield this;
    for (const child of this.children) yield* child.walk();
  }

  /** This node and its subtree as plain data. */
  toJSON(): CoordinatedThoughtNodeJSON {
    return {
      id: this.id,
      parentId: this.parentId,
      thought: this.thought,
      depth: this.depth,
      status: this.status,
      score: this.score,
      research: this.research,
      evaluations: this.evaluations.map((e) => ({ ...e, reasons: [...e.reasons] })),
      expanded: this.expanded,
      path: this.path,
      children: this.children.map((child) => child.toJSON()),
    };
  }
}

/** The node data the validator checks before a node enters the tree (the seed's validator tool). */
export const thoughtNodeSchema = z.object({
  id: z.string().trim().min(1, 'the id is empty'),
  parentId: z.string().min(1).nullable(),
  thought: z.string().trim().min(1, 'the thought is empty'),
  depth: z.number().int().min(0),
  status: z.enum(thoughtStatuses),
});

/** Node data as the validator receives it. */
export type ThoughtNodeData = z.input<typeof thoughtNodeSchema>;

/** The validator's verdict: the node may enter the tree, or the reason it may not. */
export type NodeValidation = { valid: true } | { valid: false; reason: string };

/**
 * Checks one node before it enters the tree: the schema (non-empty id and thought, an integer
 * depth, a known status), then that it fits its parent (the parent's id, the parent's depth + 1; a
 * root has no parent and depth 0) and that no node of the tree already has its id.
 */
export function validateThoughtNode(
  data: ThoughtNodeData,
  parent: CoordinatedThoughtNode | null,
  takenIds: ReadonlySet<string> = new Set(),
): NodeValidation {
  const parsed = thoughtNodeSchema.safeParse(data);
  if (!parsed.success) return { valid: false, reason: describeZodError(parsed.error) };
  const node = parsed.data;
  if (node.parentId !== (parent?.id ?? null)) {
    return { valid: false, reason: `parentId ${node.parentId} is not the parent's id ${parent?.id ?? null}` };
  }
  const depth = parent ? parent.depth + 1 : 0;
  if (node.depth !== depth) {
    return { valid: false, reason: `depth ${node.depth} is not the parent's depth + 1 (${depth})` };
  }
  if (takenIds.has(node.id)) return { valid: false, reason: `the id ${node.id} is already in the tree` };
  return { valid: true };
}
