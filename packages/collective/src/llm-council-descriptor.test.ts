import type { ModelRequest } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import type { LLMCouncilResult } from './llm-council.js';
import { llmCouncilConfigSchema, llmCouncilDescriptor } from './llm-council-descriptor.js';
import { offeredIds, scripted, slowToComply } from './test-helpers.js';

const offered = (request: ModelRequest) => ({ ranking: offeredIds(request) });

describe('llmCouncilDescriptor', () => {
  it('makes the named agent the chairman and the rest members', async () => {
    const chair = scripted('chair', () => 'final');
    const council = llmCouncilDescriptor.create(
      [chair.agent, ...['a', 'b', 'c'].map((n) => slowToComply(n, 0, offered, `${n} text`).agent)],
      { chairman: 'chair' },
    );
    const result = (await council.run('q')) as LLMCouncilResult;
    expect(council.type).toBe('LLMCouncil');
    expect(result.answers.map((a) => a.member)).toEqual(['a', 'b', 'c']);
    expect(result.output).toBe('final');
  });

  it('gives a worst case equal to a run where every ranking needs every repair', async () => {
    const config = { maxRepairs: 2 };
    const agents = [
      ...['a', 'b', 'c'].map((n) => slowToComply(n, 2, offered, `${n} text`).agent),
      scripted('chair', () => 'f').agent,
    ];
    const worst = llmCouncilDescriptor.worstCase?.(agents, config);
    const result = (await llmCouncilDescriptor.create(agents, config).run('q')) as LLMCouncilResult;
    expect(worst).toEqual({ maxCalls: 3 * (1 + 3) + 1 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(result.rankings).toHaveLength(3);
  });

  it('validates its config', () => {
    expect(llmCouncilConfigSchema.safeParse({ maxWorkers: 0 }).success).toBe(false);
  });
});
