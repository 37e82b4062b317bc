/** One ranker's order of anonymous answer ids, best first. */
export interface Ranking {
  member: string;
  ranking: string[];
}

/** An anonymous answer's place in the council: its mean position (1 = best) over the rankings that held it. */
export interface AggregateRank {
  id: string;
  /** The mean 1-based position over the rankings that ranked this answer; null when none did. */
  score: number | null;
  /** How many rankings ranked this answer. */
  rankedBy: number;
}

/**
 * Aggregates rankings by mean rank: each answer's score is its average position (1 = best) over
 * the rankings that include it, so an answer is not penalized for the ranking its own author could
 * not give. Best (lowest) first; ties by id order; answers nobody ranked last.
 */
export function meanRank(ids: readonly string[], rankings: readonly Ranking[]): AggregateRank[] {
  return ids
    .map((id, order) => {
      const positions = rankings.map((r) => r.ranking.indexOf(id) + 1).filter((p) => p > 0);
      const score = positions.length === 0 ? null : positions.reduce((a, b) => a + b, 0) / positions.length;
      return { id, score, rankedBy: positions.length, order };
    })
    .sort(
      (a, b) =>
        (a.score ?? Number.POSITIVE_INFINITY) - (b.score ?? Number.POSITIVE_INFINITY) || a.order - b.order,
    )
    .map(({ id, score, rankedBy }) => ({ id, score, rankedBy }));
}

/** Anonymous ids for `count` answers: A, B, … Z, then A2, B2, … */
export function anonymousIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const letter = String.fromCharCode(65 + (i % 26));
    return i < 26 ? letter : `${letter}${Math.floor(i / 26) + 1}`;
  });
}
