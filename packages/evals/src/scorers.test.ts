import { ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EvalItem } from './dataset.js';
import {
  customScorer,
  exactMatch,
  jsonSchemaValid,
  modelJudge,
  normalizedMatch,
  numericTolerance,
  regexMatch,
} from './scorers.js';

const score = async (scorer: ReturnType<typeof exactMatch>, output: string, item: EvalItem) => {
  const raw = await scorer.score({ item, output, finalOutput: output });
  return typeof raw === 'number' ? raw : raw.score;
};

describe('scorers', () => {
  it('exact and normalised match', async () => {
    expect(await score(exactMatch(), '24', { input: 'q', expected: '24' })).toBe(1);
    expect(await score(exactMatch(), '24 ', { input: 'q', expected: '24' })).toBe(0);
    expect(await score(normalizedMatch(), '  "Paris."', { input: 'q', expected: 'paris' })).toBe(1);
    expect(await score(normalizedMatch(), 'Lyon', { input: 'q', expected: 'paris' })).toBe(0);
    await expect(score(exactMatch(), 'x', { input: 'q' })).rejects.toThrow(/no "expected"/);
  });

  it('regex and numeric tolerance', async () => {
    expect(await score(regexMatch(/^\d+$/g), '42', { input: 'q' })).toBe(1);
    expect(await score(regexMatch(/^\d+$/g), '42', { input: 'q' })).toBe(1);
    expect(await score(regexMatch(/^\d+$/), 'x42', { input: 'q' })).toBe(0);
    const near = numericTolerance({ tolerance: 0.5 });
    expect(await score(near, 'about 3.4 units', { input: 'q', expected: 3 })).toBe(1);
    expect(await score(near, '3.6', { input: 'q', expected: 3 })).toBe(0);
    expect(await score(near, 'none', { input: 'q', expected: 3 })).toBe(0);
    expect(
      await score(numericTolerance({ tolerance: 0.1, relative: true }), '109', { input: 'q', expected: 100 }),
    ).toBe(1);
  });

  it('JSON-schema validity and a custom function', async () => {
    const valid = jsonSchemaValid(z.object({ n: z.number() }));
    expect(await score(valid, '{"n":1}', { input: 'q' })).toBe(1);
    expect(await valid.score({ item: { input: 'q' }, output: '{"n":"1"}', finalOutput: '' })).toMatchObject({
      score: 0,
      rationale: expect.stringMatching(/^n:/),
    });
    expect(await score(valid, 'nope', { input: 'q' })).toBe(0);
    const long = customScorer('long', ({ output }) => output.length > 3);
    expect(await score(long, 'abcd', { input: 'q' })).toBe(1);
    expect(await score(long, 'ab', { input: 'q' })).toBe(0);
  });

  it('a model judge scores 0-10 through generateObject and counts its own calls', async () => {
    const model = new ScriptedModel([toolCall('judge', { score: 7, rationale: 'mostly right' })]);
    const judge = modelJudge({ model, criteria: 'correctness' });
    const verdict = await judge.score({
      item: { input: 'What is 2+2?', expected: '4' },
      output: 'four',
      finalOutput: 'four',
    });
    expect(verdict).toMatchObject({ score: 0.7, rationale: 'mostly right', llmCalls: 1 });
    expect(model.calls).toHaveLength(1);
    const prompt = JSON.stringify(model.calls[0]?.messages);
    expect(prompt).toContain('What is 2+2?');
    expect(prompt).toContain('four');
  });
});
