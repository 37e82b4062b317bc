import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { extractKeywords } from './extract-keywords.js';

describe('extractKeywords', () => {
  it('drops stop words, so "I am a tax expert" yields tax and expert, never i or a', () => {
    expect(extractKeywords('I am a tax expert')).toEqual(['tax', 'expert']);
  });

  it('strips punctuation instead of dropping the word', () => {
    expect(extractKeywords('investment planning, retirement strategies, and tax optimization.')).toEqual([
      'investment',
      'planning',
      'retirement',
      'strategies',
      'tax',
    ]);
  });

  it('ranks by frequency, ties in order of first appearance, up to topN', () => {
    expect(extractKeywords('stocks bonds stocks cash bonds stocks', { topN: 2 })).toEqual([
      'stocks',
      'bonds',
    ]);
  });

  it('keeps stop words when asked', () => {
    expect(extractKeywords('I am a tax expert', { keepStopWords: true })).toEqual([
      'i',
      'am',
      'a',
      'tax',
      'expert',
    ]);
  });

  it('returns every word with topN Infinity', () => {
    expect(
      extractKeywords('tax returns, tax credits and payroll', { topN: Number.POSITIVE_INFINITY }),
    ).toEqual(['tax', 'returns', 'credits', 'payroll']);
  });

  it('rejects a negative topN', () => {
    expect(() => extractKeywords('x', { topN: -1 })).toThrow(ConfigError);
  });
});
