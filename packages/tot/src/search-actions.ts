import type { ThoughtNode } from './thought-node.js';

/** The moves a search algorithm makes; the topology supplies them (generate, evaluate and prune, limits). */
export interface SearchActions {
  /** Generates the candidate next steps of `node`, drops duplicates, and attaches them as its children. */
  generate(node: ThoughtNode): Promise<ThoughtNode[]>;
  /** Scores the candidates (one vote across all of them in `'vote'` mode) and prunes the weak ones. */
  evaluate(candidates: ThoughtNode[]): Promise<void>;
  /** Expansions still allowed: 0 once `maxExpansions` is reached or the budget ran out. */
  expansionsLeft(): number;
}
