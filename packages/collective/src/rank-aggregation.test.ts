import { describe, expect, it } from 'vitest';
import { anonymousIds, meanRank } from './rank-aggregation.js';

describe('meanRank', () => {
  it('scores each answer by its mean position over the rankings that hold it, best first', () => {
    const aggregate = meanRank(
      ['A', 'B', 'C'],
      [
        { member: 'ada', ranking: ['C', 'B'] }, // ada wrote A
        { member: 'bob', ranking: ['C', 'A'] }, // bob wrote B
        { member: 'cy', ranking: ['A', 'B'] }, // cy wrote C
      ],
    );
    expect(aggregate).toEqual([
      { id: 'C', score: 1, rankedBy: 2 },
      { id: 'A', score: 1.5, rankedBy: 2 },
      { id: 'B', score: 2, rankedBy: 2 },
    ]);
  });

  it('breaks equal scores by id order and puts answers nobody ranked last', () => {
    const aggregate = meanRank(
      ['A', 'B', 'C'],
      [
        { member: 'x', ranking: ['B', 'A'] },
        { member: 'y', ranking: ['A', 'B'] },
      ],
    );
    expect(aggregate).toEqual([
      { id: 'A', score: 1.5, rankedBy: 2 },
      { id: 'B', score: 1.5, rankedBy: 2 },
      { id: 'C', score: null, rankedBy: 0 },
    ]);
  });
});

describe('anonymousIds', () => {
  it('gives letters, then numbered letters past Z', () => {
    expect(anonymousIds(3)).toEqual(['A', 'B', 'C']);
    expect(anonymousIds(28).slice(25)).toEqual(['Z', 'A2', 'B2']);
  });
});
