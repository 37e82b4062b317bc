import { describe, expect, it } from 'vitest';
import type { DebateWithJudgeResult } from './debate-with-judge.js';
import { debateWithJudgeConfigSchema, debateWithJudgeDescriptor } from './debate-with-judge-descriptor.js';
import { scripted, slowToComply } from './test-helpers.js';

const open = () => ({ winner: 'tie', synthesis: 'Both have a point.', confidence: 0.5, converged: false });

describe('debateWithJudgeDescriptor', () => {
  it('takes pro, con and judge in order', async () => {
    const debate = debateWithJudgeDescriptor.create(
      [
        scripted('yes', () => 'for').agent,
        scripted('no', () => 'against').agent,
        slowToComply('judge', 0, open).agent,
      ],
      { maxLoops: 1 },
    );
    const result = (await debate.run('Tabs beat spaces.')) as DebateWithJudgeResult;
    expect(debate.type).toBe('DebateWithJudge');
    expect(result.rounds[0]).toMatchObject({ pro: { agent: 'yes' }, con: { agent: 'no' } });
  });

  it('gives a worst case equal to a debate that never converges with every verdict repaired', async () => {
    const config = { maxLoops: 2, maxRepairs: 2 };
    const agents = [
      scripted('yes', () => 'for').agent,
      scripted('no', () => 'against').agent,
      slowToComply('judge', 2, open).agent,
    ];
    const worst = debateWithJudgeDescriptor.worstCase?.(agents, config);
    const result = (await debateWithJudgeDescriptor
      .create(agents, config)
      .run('Tabs beat spaces.')) as DebateWithJudgeResult;
    expect(worst).toEqual({ maxCalls: 2 * (1 + 1 + 3) });
    expect(result.llmCalls).toBe(worst?.maxCalls);
  });

  it('refuses anything but three agents, and bad config', () => {
    expect(() => debateWithJudgeDescriptor.create([scripted('a', () => '').agent], {})).toThrow(
      /exactly three/,
    );
    expect(debateWithJudgeConfigSchema.safeParse({ maxLoops: 0 }).success).toBe(false);
  });
});
