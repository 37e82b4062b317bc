import { Agent, ConfigError } from '@swarm/core';
import { object, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { treeOfThoughtsDescriptor } from './tot-descriptor.js';

describe('treeOfThoughtsDescriptor', () => {
  it("builds a search on the agent's model with its instructions as the system prompt", async () => {
    const model = new ScriptedModel([object({ answer: '42' })]);
    const agent = new Agent({ name: 'solver', instructions: 'You are a careful logician.', model });
    const topology = treeOfThoughtsDescriptor.create([agent], {
      generationStrategy: () => [{ content: '6 * 7 = 42', isFinal: true }],
      evaluationStrategy: () => 1,
    });

    const result = await topology.run('What is six times seven?');

    expect(topology.type).toBe('TreeOfThoughts');
    expect(result.output).toBe('42');
    expect(model.calls).toHaveLength(1);
    expect(model.lastCall?.system).toBe('You are a careful logician.');
  });

  it('refuses anything but exactly one agent', () => {
    const model = new ScriptedModel();
    const a = new Agent({ name: 'a', model });
    const b = new Agent({ name: 'b', model });
    expect(() => treeOfThoughtsDescriptor.create([a, b], {})).toThrow(ConfigError);
    expect(() => treeOfThoughtsDescriptor.create([], {})).toThrow(/exactly one agent/);
  });

  it('accepts the JSON config a spec may give and rejects anything else, by path', () => {
    const schema = treeOfThoughtsDescriptor.configSchema!;
    expect(
      schema.safeParse({
        searchAlgorithm: 'dfs',
        numThoughts: 2,
        maxDepth: 4,
        agentOptions: { maxRepairs: 1 },
      }).success,
    ).toBe(true);
    expect(schema.safeParse({ searchAlgorithm: 'astar' }).error?.issues[0]?.path).toEqual([
      'searchAlgorithm',
    ]);
    expect(schema.safeParse({ numThoughts: 0 }).error?.issues[0]?.path).toEqual(['numThoughts']);
    expect(schema.safeParse({ agentOptions: { retries: 2 } }).success).toBe(false);
    expect(schema.safeParse({ model: 'openai:gpt-5.4' }).success).toBe(false);
  });
});
