import type { Agent } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import type { CouncilAsAJudge, CouncilAsAJudgeResult } from './council-as-a-judge.js';
import { councilAsAJudgeConfigSchema, councilAsAJudgeDescriptor } from './council-as-a-judge-descriptor.js';
import { scripted, slowToComply } from './test-helpers.js';

describe('councilAsAJudgeDescriptor', () => {
  it("by default (as swarms) builds its judges and aggregator on the first agent's model, whatever the agents", () => {
    const first = scripted('first', () => 'x');
    const second = scripted('second', () => 'y');
    const council = councilAsAJudgeDescriptor.create([first.agent, second.agent], {}) as CouncilAsAJudge;
    expect(council.judges.every((j) => j.model === first.agent.model)).toBe(true);
    expect(council.aggregator.name).toBe('aggregator');
    expect((council.aggregator as Agent).model).toBe(first.agent.model);
    expect(councilAsAJudgeDescriptor.maxAgents).toBeUndefined();
  });

  it("judges on the first agent's model and has the agent named in roles write the report", async () => {
    const judge = scripted('judge', () => ({
      text: '',
      toolCalls: [{ name: 'judge', arguments: { score: 8, rationale: 'ok' } }],
    }));
    const writer = scripted('writer', () => 'Solid.');
    const council = councilAsAJudgeDescriptor.create([judge.agent, writer.agent], {
      dimensions: ['accuracy'],
      roles: { aggregator: 'writer' },
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
