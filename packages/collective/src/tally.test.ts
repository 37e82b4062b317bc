import { describe, expect, it } from 'vitest';
import { normalizeAnswer, tallyVotes, type Vote } from './tally.js';

const vote = (agent: string, answer: string, confidence = 0.5): Vote => ({
  agent,
  answer,
  confidence,
  reasoning: '',
});

describe('tallyVotes', () => {
  it('counts answers that differ only in case, spacing and final punctuation as one', () => {
    const tally = tallyVotes(
      [vote('a', 'Paris.'), vote('b', 'Lyon'), vote('c', '  paris ')],
      normalizeAnswer,
    );
    expect(tally).toEqual([
      { answer: 'Paris.', count: 2, agents: ['a', 'c'] },
      { answer: 'Lyon', count: 1, agents: ['b'] },
    ]);
  });

  it('breaks a tie in count by the higher summed confidence', () => {
    const tally = tallyVotes(
      [vote('a', 'Lyon', 0.4), vote('b', 'Paris', 0.9), vote('c', 'Lyon', 0.4), vote('d', 'Paris', 0.2)],
      normalizeAnswer,
    );
    expect(tally.map((t) => t.answer)).toEqual(['Paris', 'Lyon']);
  });

  it('breaks a tie in count and confidence by the answer given first in input order', () => {
    const tally = tallyVotes(
      [vote('a', 'Lyon'), vote('b', 'Paris'), vote('c', 'Paris'), vote('d', 'Lyon')],
      normalizeAnswer,
    );
    expect(tally.map((t) => t.answer)).toEqual(['Lyon', 'Paris']);
  });

  it('uses the normalizer it is given', () => {
    const byFirstWord = (s: string) => s.split(' ')[0] ?? '';
    const tally = tallyVotes(
      [vote('a', 'yes, because'), vote('b', 'yes, surely'), vote('c', 'no')],
      byFirstWord,
    );
    expect(tally[0]).toEqual({ answer: 'yes, because', count: 2, agents: ['a', 'b'] });
  });
});
