/** One agent's bid in one round: the score it gave (clamped to 0..1) and after the recency penalty. */
export interface Bid {
  agent: string;
  score: number;
  adjusted: number;
  /** In `'intent'` bidding: what the agent means to say. */
  intent?: string;
  /** Why the bid counts as silence (a failed or blank bid), if it does. */
  error?: string;
}

/** Clamps a raw score into 0..1, as the seed does. */
export function clampScore(score: number): number {
  return Math.min(1, Math.max(0, score));
}

/**
 * The score after the recency penalty: an agent among the last `window` speakers loses `penalty`
 * (never below 0).
 */
export function adjustForRecency(
  agent: string,
  score: number,
  speakers: readonly string[],
  penalty: number,
  window: number,
): number {
  const recent = window > 0 ? speakers.slice(-window) : [];
  return recent.includes(agent) ? Math.max(0, score - penalty) : score;
}

/**
 * Orders the bids that may speak: only adjusted scores strictly above `threshold`, highest first;
 * on equal adjusted scores, the agent that has posted fewer messages, then the earlier in input order.
 */
export function speakingOrder(bids: readonly Bid[], threshold: number, posted: readonly string[]): Bid[] {
  const count = (agent: string) => posted.filter((a) => a === agent).length;
  return bids
    .map((bid, index) => ({ bid, index }))
    .filter(({ bid }) => bid.error === undefined && bid.adjusted > threshold)
    .sort(
      (a, b) =>
        b.bid.adjusted - a.bid.adjusted || count(a.bid.agent) - count(b.bid.agent) || a.index - b.index,
    )
    .map(({ bid }) => bid);
}
