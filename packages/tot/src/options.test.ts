import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { TreeOfThoughts, type TreeOfThoughtsOptions } from './index.js';

describe('TreeOfThoughts options', () => {
  it("applies the seed's defaults without needing an API key", () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const tot = new TreeOfThoughts();
      expect(tot.name).toBe('Tree-of-Thoughts-Agent');
      expect(tot.description).toBe('Solves tasks by searching a tree of reasoning steps.');
      expect(tot.lastResult).toBeNull();
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  const invalid: [string, TreeOfThoughtsOptions, RegExp][] = [
    ['an unknown search algorithm', { searchAlgorithm: 'astar' as 'bfs' }, /searchAlgorithm/],
    ['an unknown generation strategy', { generationStrategy: 'guess' as 'propose' }, /generationStrategy/],
    ['an unknown evaluation strategy', { evaluationStrategy: 'poll' as 'vote' }, /evaluationStrategy/],
    ['numThoughts below 1', { numThoughts: 0 }, /numThoughts must be an integer >= 1/],
    ['breadth below 1', { breadth: 0 }, /breadth/],
    ['maxDepth below 1', { maxDepth: 0 }, /maxDepth/],
    ['nEvaluateSamples below 1', { nEvaluateSamples: 0 }, /nEvaluateSamples/],
    ['maxWorkers below 1', { maxWorkers: 0 }, /maxWorkers/],
    ['maxExpansions below 1', { maxExpansions: 0 }, /maxExpansions/],
    [
      'valueThreshold above 1',
      { valueThreshold: 1.5 },
      /valueThreshold must be a number between 0 and 1 \(got 1.5\)/,
    ],
    ['valueThreshold below 0', { valueThreshold: -0.1 }, /valueThreshold/],
    ['an unknown output type', { outputType: 'yaml' as 'final' }, /outputType must be one of/],
    ['a verbose that is not a boolean', { verbose: 'yes' as never }, /verbose must be true or false/],
    [
      'agentOptions.maxRepairs below 0',
      { agentOptions: { maxRepairs: -1 } },
      /agentOptions\.maxRepairs must be an integer >= 0/,
    ],
    ['an unknown model string', { model: 'nonsense-model' }, /resolveModel/],
  ];
  for (const [what, options, message] of invalid) {
    it(`throws a ConfigError for ${what}`, () => {
      expect(() => new TreeOfThoughts(options)).toThrow(ConfigError);
      expect(() => new TreeOfThoughts(options)).toThrow(message);
    });
  }
});
