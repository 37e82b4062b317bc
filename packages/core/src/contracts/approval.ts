// Contracts layer: types only, imported by every layer above (no imports of its own).

/**
 * A tool call that waits for a person's decision, as `RunPausedError.pending` lists it: plain data
 * (it survives `JSON.stringify`), so a queue or a CLI can keep it and ask someone later.
 */
export interface PendingApproval {
  /** Stable across resumes of the run: the key of `RunOptions.approvals`. */
  id: string;
  /** The outermost run's id (the journal's key). */
  runId: string;
  /** The runs from the outermost to the one that made the call (topology types, agent names). */
  path: string[];
  agent: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** A hash of the tool's name and these arguments: the decision on `id` approves exactly this call. */
  argumentsHash?: string;
}

/** A person's decision on a pending call: a rejected call answers the model with `message` as a tool error. */
export interface ApprovalDecision {
  approved: boolean;
  message?: string;
  /** Who decided (a user name, an email): journaled with the decision and shown by `swarm resume`. */
  by?: string;
  /** When they decided, ISO 8601 (set by the run when not given). */
  at?: string;
}

/** Decisions on a paused run's pending calls, by `PendingApproval.id`. */
export type Approvals = Record<string, ApprovalDecision>;
