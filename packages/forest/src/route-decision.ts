/** How the forest picks an agent: the best score across every tree, or the seed's first match. */
export type RoutingStrategy = 'best' | 'first';

/**
 * Which evidence made the chosen agent relevant: topical keywords of its prompt in the task (one
 * word only when it passed the sense check, see `RouteCandidate.sense`), a
 * similarity above the agent's threshold (that still holds without the words the task shares only
 * weakly with the prompt: context agreement), or both; `'fallback'` when no agent was relevant.
 */
export type RouteRule = 'keyword' | 'similarity' | 'keyword+similarity' | 'fallback';

/** How well one agent fits one task, with the evidence. */
export interface RouteCandidate {
  /** The agent's tree; absent only for a fallback agent that belongs to no tree. */
  tree?: string;
  agent: string;
  /** The ranking score: `relativeSimilarity + keywordWeight * keywordScore`. */
  score: number;
  /** Cosine similarity of the task with the agent's prompt embedding, as the embedder gives it. */
  similarity: number;
  /** The similarity this agent needed to be relevant without a keyword (calibrated or explicit). */
  threshold: number;
  /** The agent's keywords found in the task (compared by stem); generic words never count. */
  keywordMatches: string[];
  /** Sum of the matched keywords' specificity within the forest (a keyword only this agent has weighs 1). */
  keywordScore: number;
  /**
   * The sense check, present when the task's keyword evidence for this agent was a single word:
   * the word-vector similarity of the task and the prompt, and the threshold: the mean similarity
   * of the reference texts with that word added. Below it the word was taken in another sense and
   * did not count as a keyword.
   */
  sense?: { similarity: number; threshold: number };
}

/**
 * Why a task went where it went: the chosen agent with its score and evidence, the rule that made it
 * relevant, the runner-up (the next-best agent by score) and the strategy that decided. Plain data,
 * so it serializes as is.
 */
export interface RouteDecision extends RouteCandidate {
  task: string;
  /** `'fallback'` when no agent was relevant and the configured fallback took the task. */
  strategy: RoutingStrategy | 'fallback';
  /** What made the chosen agent relevant. */
  rule: RouteRule;
  /** Where the similarity thresholds came from: the reference texts, or the `threshold` option. */
  calibration: 'reference' | 'explicit';
  runnerUp?: RouteCandidate;
}
