import { describe, expect, it } from 'vitest';
import type { MajorityVotingResult } from './majority-voting.js';
import { majorityVotingConfigSchema, majorityVotingDescriptor } from './majority-voting-descriptor.js';
import { forced, scripted, slowToComply } from './test-helpers.js';

const vote = (answer: string) => () => ({ answer, confidence: 0.5, reasoning: '' });

describe('majorityVotingDescriptor', () => {
  it('makes every agent a voter except the named consensus agent', async () => {
    const consensus = scripted('writer', () => 'It is 4.');
    const voting = majorityVotingDescriptor.create(
      [
        scripted('a', (r) => forced(r, vote('4')())).agent,
        consensus.agent,
        scripted('b', (r) => forced(r, vote('4')())).agent,
      ],
      { consensusAgent: 'writer' },
    );
    const result = await voting.run('2 + 2?');
    expect(voting.type).toBe('MajorityVoting');
    expect(result.output).toBe('It is 4.');
    expect(consensus.model.calls).toHaveLength(1);
  });

  it('gives a worst case equal to a run where every vote needs every repair', async () => {
    const config = { consensusAgent: 'writer', maxRepairs: 2 };
    const agents = [
      slowToComply('a', 2, vote('4')).agent,
      slowToComply('b', 2, vote('5')).agent,
      scripted('writer', () => 'four').agent,
    ];
    const worst = majorityVotingDescriptor.worstCase?.(agents, config);
    const result = (await majorityVotingDescriptor
      .create(agents, config)
      .run('2 + 2?')) as MajorityVotingResult;
    expect(worst).toEqual({ maxCalls: 2 * 3 + 1 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(result.votes).toHaveLength(2);
  });

  it('validates its config', () => {
    expect(majorityVotingConfigSchema.safeParse({ maxRepairs: -1 }).success).toBe(false);
    expect(() =>
      majorityVotingDescriptor.create([scripted('a', () => '').agent], { consensusAgent: 'z' }),
    ).toThrow(/"z"/);
  });
});
