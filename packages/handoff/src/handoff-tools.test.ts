import { Agent, type Model, type ModelRequest, type ModelResponse } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handoff } from './handoff.js';
import { Team } from './team.js';

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };

// Keeps each request as the agent passed it (ScriptedModel keeps copies), so that the test sees
// whether two runs were offered the very same tool definitions.
function recordingModel(response: ModelResponse): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'recording',
    requests,
    generate: async (request) => {
      requests.push(request);
      return response;
    },
  };
}

describe('handoff tools', () => {
  it('are built once per team: every run offers the same definitions', async () => {
    const answer: ModelResponse = { text: 'Done.', toolCalls: [], usage, finishReason: 'stop', modelId: 'r' };
    const model = recordingModel(answer);
    const triage = new Agent({ name: 'triage', model });
    const billing = new Agent({ name: 'billing', model: recordingModel(answer) });
    const tech = new Agent({ name: 'tech', model: recordingModel(answer) });
    const team = Team.swarm({
      agents: { triage, billing, tech: handoff(tech, { inputType: z.object({ issue: z.string() }) }) },
      entryAgent: 'triage',
    });

    await team.run('first');
    await team.run('second');

    const [first, second] = model.requests.map((request) => request.tools);
    expect(first?.map((t) => t.name)).toEqual(['handoff', 'transfer_to_tech']);
    expect(second).toHaveLength(2);
    expect(second?.[0]).toBe(first?.[0]);
    expect(second?.[1]).toBe(first?.[1]);
  });
});
