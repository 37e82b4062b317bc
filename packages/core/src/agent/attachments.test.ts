import { describe, expect, it } from 'vitest';
import { runMember } from '../composition/member.js';
import { BaseTopology, type TopologyResult } from '../composition/topology.js';
import { runTopology } from '../composition/topology-run.js';
import type { ContentPart } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import type { RunOptions } from '../kernel/run-context.js';
import { reply, ScriptedModel } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

const chart: ContentPart = { type: 'image', url: 'https://example.com/sales-chart.png' };
const report: ContentPart = {
  type: 'file',
  data: 'JVBERi0xLjQ=',
  mediaType: 'application/pdf',
  filename: 'q3.pdf',
};

/** A writer, then a reviewer of the writer's draft: each member given text, as most topologies do. */
class WriteThenReview extends BaseTopology {
  readonly type = 'WriteThenReview';
  readonly name = 'write-then-review';
  constructor(readonly members: [Agent, Agent | BaseTopology]) {
    super();
  }
  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async (context) => {
      const draft = await runMember(this.members[0], task, context);
      const review = await runMember(this.members[1], `Review: ${draft.output}`, context);
      return { output: review.output };
    });
  }
}

describe('run(task, { attachments })', () => {
  it("puts an agent's attachments after the task in its first turn", async () => {
    const model = new ScriptedModel([reply('Sales rose 12%.')]);
    const agent = new Agent({ name: 'analyst', model });
    await agent.run('What does the chart show?', { attachments: [chart] });
    expect(model.calls[0]!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What does the chart show?' }, chart] },
    ]);
  });

  it('keeps a run without attachments on plain text', async () => {
    const model = new ScriptedModel([reply('Hi.')]);
    await new Agent({ name: 'greeter', model }).run('Hello');
    expect(model.calls[0]!.messages).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it("gives a topology's attachments to every member given text, nested topologies included", async () => {
    const writerModel = new ScriptedModel([reply('Draft: sales rose.')]);
    const reviewerModel = new ScriptedModel([reply('Looks right.')]);
    const inner = new WriteThenReview([
      new Agent({ name: 'checker', model: new ScriptedModel([reply('Checked.')]) }),
      new Agent({ name: 'reviewer', model: reviewerModel }),
    ]);
    const topology = new WriteThenReview([new Agent({ name: 'writer', model: writerModel }), inner]);
    const result = await topology.run('Summarise the quarter.', { attachments: [chart, report] });

    expect(result.output).toBe('Looks right.');
    expect(writerModel.calls[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: 'Summarise the quarter.' },
      chart,
      report,
    ]);
    // The nested topology's reviewer reads text made from the task, with the outer run's attachments.
    expect(reviewerModel.calls[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: 'Review: Checked.' },
      chart,
      report,
    ]);
  });

  it('rejects a malformed attachment with a ConfigError before any model call', async () => {
    const model = new ScriptedModel([reply('never')]);
    const topology = new WriteThenReview([new Agent({ name: 'a', model }), new Agent({ name: 'b', model })]);
    const bad = [{ type: 'image', mediaType: 'image/png' }] as unknown as ContentPart[];
    await expect(topology.run('x', { attachments: bad })).rejects.toThrow(ConfigError);
    await expect(new Agent({ name: 'a', model }).run('x', { attachments: bad })).rejects.toThrow(
      /attachments\[0\]: an image part needs a url/,
    );
    expect(model.calls).toHaveLength(0);
  });
});
