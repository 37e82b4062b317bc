import { describe, expect, it } from 'vitest';
import type { CouncilAsAJudgeResult } from './council-as-a-judge.js';
import { councilAsAJudgeConfigSchema, councilAsAJudgeDescriptor } from './council-as-a-judge-descriptor.js';
import { scripted, slowToComply } from './test-helpers.js';

describe('councilAsAJudgeDescriptor', () => {
  it("judges on the first agent's model and has the second write the report", async () => {
    const judge = scripted('judge', () => ({
      text: '',
      toolCalls: [{ name: 'judge', arguments: { score: 8, rationale: 'ok' } }],
    }));
    const writer = scripted('writer', () => 'Solid.');
    const council = councilAsAJudgeDescriptor.create([judge.agent, writer.agent], {
      dimensions: ['accuracy'],
    });
    const result = (await council.run('Q: 1+1? A: 2')) as CouncilAsAJudgeResult;
    expect(council.type).toBe('CouncilAsAJudge');
    expect(result.scores).toEqual({ accuracy: { score: 8, rationale: 'ok' } });
    expect(result.output).toBe('Solid.');
    expect(judge.model.calls).toHaveLength(1);
  });

  it('gives a worst case equal to a run where every judgement needs every repair', async () => {
    const config = { dimensions: ['accuracy', 'coherence', 'tone'], maxRepairs: 1 };
    const agents = [slowToComply('judge', 1, () => ({ score: 5, rationale: 'r' }), 'report').agent];
    const worst = councilAsAJudgeDescriptor.worstCase?.(agents, config);
    const result = (await councilAsAJudgeDescriptor
      .create(agents, config)
      .run('Q A')) as CouncilAsAJudgeResult;
    expect(worst).toEqual({ maxCalls: 3 * 2 + 1 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(Object.values(result.scores).every((s) => 'score' in s)).toBe(true);
  });

  it('validates its config', () => {
    expect(councilAsAJudgeConfigSchema.safeParse({ dimensions: [] }).success).toBe(false);
    expect(
      councilAsAJudgeConfigSchema.safeParse({ dimensions: ['accuracy', { name: 'tone', description: 'x' }] })
        .success,
    ).toBe(true);
  });
});
