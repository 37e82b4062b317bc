/** How the forest picks an agent: the best score across every tree, or the seed's first match. */
export type RoutingStrategy = 'best' | 'first';

/** How well one agent fits one task, with the evidence. */
export interface RouteCandidate {
  /** The agent's tree; absent only for a fallback agent that belongs to no tree. */
  tree?: string;
  agent: string;
  /** The ranking score: `similarity + keywordWeight * keywordMatches.length`. */
  score: number;
  /** Cosine similarity of the task with the agent's prompt embedding. */
  similarity: number;
  /** The agent's keywords found in the task as whole tokens. */
  keywordMatches: string[];
}

/**
 * Why a task went where it went: the chosen agent with its score and evidence, the runner-up (the
 * next-best agent by score) and the strategy that decided. Plain data, so it serializes as is.
 */
export interface RouteDecision extends RouteCandidate {
  task: string;
  /** `'fallback'` when no agent was relevant and the configured fallback took the task. */
  strategy: RoutingStrategy | 'fallback';
  /** The similarity an agent needed when none of its keywords matched. */
  threshold: number;
  runnerUp?: RouteCandidate;
}
