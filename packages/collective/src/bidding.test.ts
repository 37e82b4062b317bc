import { describe, expect, it } from 'vitest';
import { adjustForRecency, type Bid, clampScore, speakingOrder } from './bidding.js';

const bid = (agent: string, adjusted: number, extra: Partial<Bid> = {}): Bid => ({
  agent,
  score: adjusted,
  adjusted,
  ...extra,
});

describe('bidding rules', () => {
  it('clamps scores into 0..1', () => {
    expect([clampScore(-2), clampScore(0.4), clampScore(7)]).toEqual([0, 0.4, 1]);
  });

  it('penalizes only the last recencyWindow speakers, never below 0', () => {
    const speakers = ['a', 'b', 'c'];
    expect(adjustForRecency('c', 0.9, speakers, 0.3, 2)).toBeCloseTo(0.6);
    expect(adjustForRecency('b', 0.9, speakers, 0.3, 2)).toBeCloseTo(0.6);
    expect(adjustForRecency('a', 0.9, speakers, 0.3, 2)).toBe(0.9);
    expect(adjustForRecency('c', 0.1, speakers, 0.3, 2)).toBe(0);
    expect(adjustForRecency('c', 0.9, speakers, 0.3, 0)).toBe(0.9);
  });

  it('lets only bids strictly above the threshold speak, highest first', () => {
    const order = speakingOrder([bid('a', 0.5), bid('b', 0.51), bid('c', 0.9)], 0.5, []);
    expect(order.map((b) => b.agent)).toEqual(['c', 'b']);
  });

  it('breaks a tie by fewer messages posted, then by input order', () => {
    expect(speakingOrder([bid('a', 0.8), bid('b', 0.8)], 0.5, ['a']).map((b) => b.agent)).toEqual(['b', 'a']);
    expect(speakingOrder([bid('a', 0.8), bid('b', 0.8)], 0.5, []).map((b) => b.agent)).toEqual(['a', 'b']);
  });

  it('never lets a silent (failed) bid speak', () => {
    expect(speakingOrder([bid('a', 0.9, { error: 'bad call' })], 0.5, [])).toEqual([]);
  });
});
