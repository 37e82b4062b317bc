import { describe, expect, it } from 'vitest';
import { extractKeywords } from './extract-keywords.js';
import { QUALIFIER_WEIGHT, TermIndex } from './term-index.js';

const agent = (text: string, keywords?: string[]) => ({
  keywords: keywords ?? extractKeywords(text, { topN: Number.POSITIVE_INFINITY }),
  given: keywords !== undefined,
  text,
});

describe('TermIndex', () => {
  it('never lets generic words ("helps", "individuals", "deep", "knowledge") make an agent relevant', () => {
    const index = new TermIndex([
      agent('I am a tax expert with deep knowledge of corporate taxation.'),
      agent('I am a ROTH IRA specialist who helps individuals optimize their retirement accounts.'),
    ]);
    expect(index.match('How deep is the Pacific Ocean?').size).toBe(0);
    expect(index.match('Who helps individuals learn guitar?').size).toBe(0);
    expect(index.match('How do I pay less tax?').get(0)).toMatchObject({ keywords: ['tax'], relevant: true });
  });

  it('counts a generic word when the agent gave it as a keyword', () => {
    const index = new TermIndex([agent('Ocean facts', ['deep', 'ocean'])]);
    expect(index.match('How deep is it?').get(0)).toMatchObject({ keywords: ['deep'], relevant: true });
  });

  it('matches keywords by stem as whole words, never as substrings', () => {
    const index = new TermIndex([agent('I prepare tax returns.'), agent('I pick investment funds.')]);
    expect(index.match('Do I pay taxes on investing gains?')).toEqual(
      new Map([
        [0, expect.objectContaining({ keywords: ['tax'] })],
        [1, expect.objectContaining({ keywords: ['investment'] })],
      ]),
    );
    expect(index.match('Call a taxi to fix the syntax').size).toBe(0);
  });

  it('weighs a word by how few agents share it', () => {
    const index = new TermIndex([
      agent('Tax returns and deductions.'),
      agent('Tax planning for retirement.'),
      agent('Retirement pensions and annuities.'),
    ]);
    expect(index.weight('deductions')).toBe(1);
    expect(index.weight('tax')).toBeCloseTo(Math.log(1 + 3 / 2) / Math.log(4), 6);
    expect(index.weight('guitar')).toBe(0);
  });

  it('weighs a word the prompt only uses before another one as a qualifier, too weak alone', () => {
    const index = new TermIndex([agent('I install ceiling fans and light fixtures.')]);
    expect(index.match('Who painted the ceiling of the Sistine Chapel?').get(0)).toMatchObject({
      keywords: ['ceiling'],
      score: QUALIFIER_WEIGHT,
      relevant: false,
    });
    expect(index.match('How do I install a new ceiling fan?').get(0)).toMatchObject({ relevant: true });
    expect(index.match('My ceiling fans wobble').get(0)?.score).toBeCloseTo(1 + QUALIFIER_WEIGHT, 6);
  });

  it('counts a name or acronym in full wherever the prompt puts it', () => {
    const index = new TermIndex([agent('I build interfaces with React components and CSS layouts.')]);
    expect(index.match('How do I center a div with CSS?').get(0)).toMatchObject({ score: 1, relevant: true });
  });

  it('does not let a word most agents of a large group share make one relevant on its own', () => {
    const index = new TermIndex([
      agent('Consultant for tax returns.'),
      agent('Consultant for pensions.'),
      agent('Consultant for mortgages.'),
      agent('Consultant for insurance.'),
    ]);
    expect(index.match('I need a consultant').get(0)).toMatchObject({
      keywords: ['consultant'],
      relevant: false,
    });
    expect(index.match('I need a consultant for my mortgage').get(2)).toMatchObject({ relevant: true });
  });
});
