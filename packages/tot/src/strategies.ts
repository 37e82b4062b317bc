/** One candidate next step, as a generator returns it. */
export interface ThoughtCandidate {
  content: string;
  /** Whether this step completes the task. */
  isFinal: boolean;
}

/** What a generator sees when asked for the next steps after a node. */
export interface GenerationInput {
  task: string;
  /** The steps on the path so far (empty at the root). */
  steps: string[];
  /** The depth the new steps will have (1 for the root's children). */
  depth: number;
  maxDepth: number;
  /** How many candidates are wanted; extra ones are dropped. */
  numThoughts: number;
  signal?: AbortSignal;
}

/**
 * A programmatic generator: proposes the next steps without a model, for domains whose legal
 * steps can be enumerated (the Game of 24's arithmetic moves, a chess move list).
 */
export type ThoughtGenerator = (input: GenerationInput) => ThoughtCandidate[] | Promise<ThoughtCandidate[]>;

/** What an evaluator sees when asked to rate one candidate. */
export interface EvaluationInput {
  task: string;
  /** The path including the candidate as its last step. */
  steps: string[];
  /** The candidate step itself. */
  content: string;
  depth: number;
  isFinal: boolean;
  signal?: AbortSignal;
}

/** A rating from 0 to 1, optionally with the reason (stored as the node's `evaluation`). */
export type ThoughtRating = number | { score: number; evaluation?: string };

/**
 * A programmatic evaluator: rates one candidate from 0 to 1 without a model, for domains with an
 * exact or heuristic checker. Rated like `'value'`: each candidate on its own.
 */
export type ThoughtEvaluator = (input: EvaluationInput) => ThoughtRating | Promise<ThoughtRating>;

/** What an answer writer sees: the task and the best path the search found. */
export interface AnswerInput {
  task: string;
  steps: string[];
  /** Whether the path is a solution; otherwise it is the most promising partial path. */
  solved: boolean;
  signal?: AbortSignal;
}

/** A programmatic answer writer: turns the best path into the answer without a model call. */
export type AnswerWriter = (input: AnswerInput) => string | Promise<string>;
