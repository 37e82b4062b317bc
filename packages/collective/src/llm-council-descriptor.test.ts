import type { Agent, ModelRequest } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import type { LLMCouncil, LLMCouncilResult } from './llm-council.js';
import { llmCouncilConfigSchema, llmCouncilDescriptor } from './llm-council-descriptor.js';
import { offeredIds, scripted, slowToComply } from './test-helpers.js';

const offered = (request: ModelRequest) => ({ ranking: offeredIds(request) });

describe('llmCouncilDescriptor', () => {
  it("by default (as swarms) makes every agent a member, chaired by a separate chairman on the first agent's model", () => {
    const agents = ['a', 'b', 'c'].map((n) => slowToComply(n, 0, offered, `${n} text`).agent);
    const council = llmCouncilDescriptor.create(agents, {}) as LLMCouncil;
    expect(council.members).toEqual(agents);
    expect(council.chairman.name).toBe('chairman');
    expect((council.chairman as Agent).model).toBe(agents[0]!.model);
    expect(llmCouncilDescriptor.minAgents).toBe(3);
  });

  it('makes the agent named in roles the chairman and the rest members', async () => {
    const chair = scripted('chair', () => 'final');
    const council = llmCouncilDescriptor.create(
      [chair.agent, ...['a', 'b', 'c'].map((n) => slowToComply(n, 0, offered, `${n} text`).agent)],
      { roles: { chairman: 'chair' } },
    );
    const result = (await council.run('q')) as LLMCouncilResult;
    expect(council.type).toBe('LLMCouncil');
    expect(result.answers.map((a) => a.member)).toEqual(['a', 'b', 'c']);
    expect(result.output).toBe('final');
  });

  it('gives a worst case equal to a run where every ranking needs every repair', async () => {
    const config = { maxRepairs: 2, roles: { chairman: 'chair' } };
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
