import { Agent, ConfigError, type ModelRequest } from '@swarm/core';
import { autoModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CouncilAsAJudge } from './council-as-a-judge.js';
import { DebateWithJudge } from './debate-with-judge.js';
import { LLMCouncil } from './llm-council.js';
import { MixtureOfAgents } from './mixture-of-agents.js';

const report = z.object({ verdict: z.enum(['good', 'poor']), summary: z.string().min(1) });
const typedReport = { verdict: 'good', summary: 'accurate and short' } as const;

// Answers every call as autoModel does, except the typed final answer (the final_output tool, or
// the verdict's synthesis), which gets `answer`; `invalidFirst` makes the first such answer invalid.
function headModel(answer: Record<string, unknown>, invalidFirst = false) {
  let given = 0;
  return autoModel({
    override: (request: ModelRequest) => {
      const choice = request.toolChoice;
      if (typeof choice !== 'object') return undefined;
      if (choice.name === 'final_output') {
        given += 1;
        const args = invalidFirst && given === 1 ? { verdict: 'splendid' } : answer;
        return { text: '', toolCalls: [{ id: `f${given}`, name: 'final_output', arguments: args }] };
      }
      if (choice.name === 'verdict') {
        given += 1;
        const synthesis = invalidFirst && given === 1 ? 'prose, not the object' : answer;
        const args = { winner: 'pro', synthesis, confidence: 0.8, converged: true };
        return { text: '', toolCalls: [{ id: `v${given}`, name: 'verdict', arguments: args }] };
      }
      return undefined;
    },
  });
}

describe("outputType on the topologies whose answer is one member's", () => {
  it("CouncilAsAJudge types the aggregator's report, repairing an invalid object", async () => {
    const model = headModel(typedReport, true);
    const council = new CouncilAsAJudge({
      model,
      dimensions: ['accuracy', 'conciseness'],
      outputType: report,
    });
    const result = await council.run('Q: What is 2+2? A: 4');
    const typed: { verdict: 'good' | 'poor'; summary: string } | undefined = result.finalOutput;
    expect(typed).toEqual(typedReport);
    expect(JSON.parse(result.output)).toEqual(typedReport);
    const finals = model.calls.filter((c) => c.tools?.some((t) => t.name === 'final_output'));
    expect(finals).toHaveLength(2);
  });

  it("LLMCouncil types the chairman's answer", async () => {
    const model = headModel(typedReport);
    const council = new LLMCouncil({
      members: ['ada', 'bob', 'cy'].map((name) => new Agent({ name, model })),
      chairman: new Agent({ name: 'chair', model }),
      outputType: report,
    });
    const result = await council.run('Is this answer good?');
    expect(result.finalOutput).toEqual(typedReport);
    expect(JSON.parse(result.output)).toEqual(typedReport);
  });

  it("DebateWithJudge types the verdict's synthesis, its JSON in verdict.synthesis, repairing prose", async () => {
    const model = headModel(typedReport, true);
    const debate = new DebateWithJudge({
      pro: new Agent({ name: 'pro', model }),
      con: new Agent({ name: 'con', model }),
      judge: new Agent({ name: 'judge', model }),
      maxLoops: 1,
      outputType: report,
    });
    const result = await debate.run('Remote work is better.');
    expect(result.finalOutput).toEqual(typedReport);
    expect(JSON.parse(result.verdict.synthesis)).toEqual(typedReport);
    expect(result.output).toBe(result.verdict.synthesis);
    expect(
      model.calls.filter((c) => c.metadata?.purpose === 'verdict' || c.tools?.[0]?.name === 'verdict'),
    ).toHaveLength(2);
  });

  it('refuses outputType when the answering member is a topology, or when it is not a z.object', () => {
    const model = autoModel();
    const inner = new MixtureOfAgents({
      agents: [new Agent({ name: 'w', model })],
      aggregator: new Agent({ name: 'a', model }),
    });
    expect(
      () =>
        new LLMCouncil({
          members: ['ada', 'bob', 'cy'].map((name) => new Agent({ name, model })),
          chairman: inner,
          outputType: report,
        }),
    ).toThrow(
      /LLMCouncil: outputType types the chairman's answer, but "mixture-of-agents" is a MixtureOfAgents/,
    );
    expect(() => new CouncilAsAJudge({ model, aggregator: inner, outputType: report })).toThrow(ConfigError);
    expect(
      () =>
        new DebateWithJudge({
          pro: new Agent({ name: 'pro', model }),
          con: new Agent({ name: 'con', model }),
          judge: new Agent({ name: 'judge', model }),
          outputType: z.string() as never,
        }),
    ).toThrow(/DebateWithJudge: outputType must be a z.object/);
  });
});
