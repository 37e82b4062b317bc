/** One answer of a vote and who gave it. */
export interface Vote {
  agent: string;
  answer: string;
  /** 0 to 1; absent for a Topology voter, which answers in text only. */
  confidence?: number;
  reasoning: string;
}

/** One distinct answer (after normalization), how many voted for it and who, in input order. */
export interface TallyEntry {
  /** The answer as its first voter wrote it. */
  answer: string;
  count: number;
  agents: string[];
}

/**
 * The default normalizer: answers that differ only in case, spacing, surrounding quotes or final
 * punctuation count as one ("Paris." and " paris" both count for "paris").
 */
export function normalizeAnswer(answer: string): string {
  return answer
    .normalize('NFKC')
    .trim()
    .replace(/^["'`“”‘’]+|["'`“”‘’]+$/g, '')
    .replace(/[.!?;:,]+$/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/**
 * Counts votes by normalized answer. Order: most votes first; on equal counts, the answer whose
 * voters' confidences sum higher; then the answer whose first voter comes first in input order.
 */
export function tallyVotes(votes: readonly Vote[], normalize: (answer: string) => string): TallyEntry[] {
  const groups = new Map<string, { entry: TallyEntry; confidence: number; first: number }>();
  votes.forEach((vote, index) => {
    const key = normalize(vote.answer);
    const group = groups.get(key) ?? {
      entry: { answer: vote.answer.trim(), count: 0, agents: [] },
      confidence: 0,
      first: index,
    };
    group.entry.count += 1;
    group.entry.agents.push(vote.agent);
    group.confidence += vote.confidence ?? 0;
    groups.set(key, group);
  });
  return [...groups.values()]
    .sort((a, b) => b.entry.count - a.entry.count || b.confidence - a.confidence || a.first - b.first)
    .map((g) => g.entry);
}
