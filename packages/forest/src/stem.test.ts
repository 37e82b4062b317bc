import { describe, expect, it } from 'vitest';
import { stem } from './stem.js';

describe('stem', () => {
  it('gives the forms of one word one key', () => {
    expect(new Set(['tax', 'taxes', 'taxation', 'taxable', 'taxing'].map(stem))).toEqual(new Set(['tax']));
    expect(new Set(['invest', 'investing', 'investment', 'investments', 'investor'].map(stem))).toEqual(
      new Set(['invest']),
    );
    expect(new Set(['file', 'files', 'filed', 'filing'].map(stem)).size).toBe(1);
    expect(new Set(['plan', 'plans', 'planning', 'planner'].map(stem)).size).toBe(1);
    expect(new Set(['retire', 'retirement', 'retirees'].map(stem)).size).toBe(1);
    expect(new Set(['refinance', 'refinancing'].map(stem)).size).toBe(1);
    expect(new Set(['optimize', 'optimization'].map(stem)).size).toBe(1);
    expect(new Set(['save', 'savings'].map(stem)).size).toBe(1);
  });

  it('keeps different words apart', () => {
    expect(stem('taxi')).not.toBe(stem('tax'));
    expect(stem('syntax')).not.toBe(stem('tax'));
    expect(stem('conversation')).not.toBe(stem('convert'));
  });

  it('keeps short words, words with digits, and singular words ending in s whole', () => {
    expect(stem('ira')).toBe('ira');
    expect(stem('401k')).toBe('401k');
    expect(stem('status')).toBe('status');
    expect(stem('analysis')).toBe('analysis');
    expect(stem('glass')).toBe('glass');
  });
});
