import { SwarmError } from '@swarm/core';
import type { ThoughtNode } from './thought-node.js';

/**
 * The search found no solution and the answer call failed too, so there is no answer to return.
 * Its `code` is `NO_ANSWER` and its `cause` the failed call's error; the tree is kept for inspection.
 */
export class NoAnswerError extends SwarmError {
  readonly task: string;
  readonly root: ThoughtNode;

  constructor(task: string, root: ThoughtNode, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('NO_ANSWER', `TreeOfThoughts found no solution and the answer call failed: ${reason}`, { cause });
    this.name = 'NoAnswerError';
    this.task = task;
    this.root = root;
  }
}
