import { Agent, ConfigError, messageText } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { CouncilAsAJudge } from './council-as-a-judge.js';
import { defaultDimensions } from './dimensions.js';
import { MixtureOfAgents } from './mixture-of-agents.js';
import { forced, reverseFinish, scripted } from './test-helpers.js';

const exchange = { question: 'What is 2 + 2?', response: 'It is 5.' };

// One model for every built-in judge: the score depends on the dimension named in the prompt.
function councilModel(scoreOf: (dimension: string) => number | 'fail', report = 'Report: wrong answer.') {
  return new ScriptedModel([], {
    fallback: {
      kind: 'respond',
      fn: (request) => {
        if (typeof request.toolChoice !== 'object') return report;
        const dimension = /Dimension: ([^:]+):/.exec(messageText(request.messages[0]!))?.[1] ?? '?';
        const score = scoreOf(dimension);
        return score === 'fail'
          ? 'no function call'
          : forced(request, { score, rationale: `${dimension} seen` });
      },
    },
  });
}

describe('CouncilAsAJudge', () => {
  it('scores the six default dimensions, keyed in their order, and has the aggregator write the report', async () => {
    const model = councilModel((d) => (d === 'accuracy' ? 0 : 7));
    const council = new CouncilAsAJudge({ model });

    const result = await council.run(exchange);

    expect(Object.keys(result.scores)).toEqual(defaultDimensions.map((d) => d.name));
    expect(result.scores.accuracy).toEqual({ score: 0, rationale: 'accuracy seen' });
    expect(result.scores.conciseness).toEqual({ score: 7, rationale: 'conciseness seen' });
    expect(result.output).toBe('Report: wrong answer.');
    const report = model.lastCall?.messages[0]?.content ?? '';
    expect(report).toContain('Response to evaluate:\nIt is 5.');
    expect(report).toContain('- accuracy: 0/10. accuracy seen');
  });

  it('judges all dimensions at once and keys scores by dimension when they finish out of order', async () => {
    const order = reverseFinish(2);
    const judge = (name: string, i: number, score: number) =>
      scripted(name, async (request) => {
        await order.hold(i);
        return forced(request, { score, rationale: name });
      }).agent;
    const council = new CouncilAsAJudge({
      dimensions: ['accuracy', 'tone'],
      judges: [judge('acc', 0, 2), judge('tone', 1, 9)],
      aggregator: scripted('agg', () => 'report').agent,
    });
    const result = await council.run(exchange);
    expect(order.finished).toEqual([1, 0]);
    expect(Object.entries(result.scores)).toEqual([
      ['accuracy', { score: 2, rationale: 'acc' }],
      ['tone', { score: 9, rationale: 'tone' }],
    ]);
  });

  it('reports a failing judge in the scores and still writes the report', async () => {
    const model = councilModel((d) => (d === 'coherence' ? 'fail' : 5));
    const council = new CouncilAsAJudge({ model, dimensions: ['accuracy', 'coherence'], maxRepairs: 0 });

    const result = await council.run(exchange);

    expect(result.scores.coherence).toEqual({ error: expect.stringMatching(/no valid judge call/) });
    expect(result.scores.accuracy).toEqual({ score: 5, rationale: 'accuracy seen' });
    expect(model.lastCall?.messages[0]?.content).toContain('- coherence: no score');
    expect(result.output).toBe('Report: wrong answer.');
  });

  it('takes question and response in one text through run(task)', async () => {
    const model = councilModel(() => 3);
    const result = await new CouncilAsAJudge({ model, dimensions: ['accuracy'] }).run('Q: 2 + 2? A: 5.');
    expect(model.calls[0]?.messages[0]?.content).toContain('question and response):\nQ: 2 + 2? A: 5.');
    expect(result.scores.accuracy).toMatchObject({ score: 3 });
  });

  it('streams a { question, response } run: council.scores among its events, the same result at the end', async () => {
    const stream = new CouncilAsAJudge({ model: councilModel(() => 9), dimensions: ['accuracy'] }).stream(
      exchange,
    );
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('run.start');
    expect(types).toContain('council.scores');
    expect((await stream.result).scores.accuracy).toMatchObject({ score: 9 });
  });

  it("judges with the user's own dimensions", async () => {
    const model = councilModel(() => 6);
    const council = new CouncilAsAJudge({
      model,
      dimensions: [{ name: 'humour', description: 'Is it funny?' }],
    });
    const result = await council.run(exchange);
    expect(Object.keys(result.scores)).toEqual(['humour']);
    expect(model.calls[0]?.messages[0]?.content).toContain('Dimension: humour: Is it funny?');
  });

  it('returns the scores as the report when the budget stops it before the aggregator', async () => {
    const model = councilModel(() => 4);
    const council = new CouncilAsAJudge({ model, dimensions: ['accuracy', 'coherence'] });
    const result = await council.run(exchange, { budget: { maxCalls: 2 } });
    expect(result).toMatchObject({ interrupted: true, interruptionReason: 'budget:calls' });
    expect(result.output).toBe('- accuracy: 4/10. accuracy seen\n- coherence: 4/10. coherence seen');
    expect(model.calls).toHaveLength(2);
  });

  it('takes a Topology as aggregator but refuses one as a judge', () => {
    const moa = new MixtureOfAgents({
      name: 'moa',
      agents: [scripted('x', () => '').agent],
      aggregator: scripted('y', () => '').agent,
    });
    const model = councilModel(() => 1);
    expect(() => new CouncilAsAJudge({ model, aggregator: moa })).not.toThrow();
    expect(() => new CouncilAsAJudge({ dimensions: ['accuracy'], judges: [moa as never] })).toThrow(
      /judges\[0\] "moa" is a Topology/,
    );
  });

  it('rejects bad options with a ConfigError', () => {
    const judge = new Agent({ name: 'j', model: new ScriptedModel() });
    expect(() => new CouncilAsAJudge({})).toThrow(/give a model/);
    expect(() => new CouncilAsAJudge({ judges: [judge] })).toThrow(/one Agent per dimension \(6/);
    expect(() => new CouncilAsAJudge({ model: 'gpt-5.4', dimensions: [] })).toThrow(ConfigError);
    expect(() => new CouncilAsAJudge({ model: 'gpt-5.4', dimensions: ['a', 'a'] })).toThrow(/given twice/);
  });

  it('rejects a run input that is neither a text nor { question, response }', async () => {
    await expect(new CouncilAsAJudge({ model: 'gpt-5.4' }).run({ question: 'q' } as never)).rejects.toThrow(
      ConfigError,
    );
  });
});
