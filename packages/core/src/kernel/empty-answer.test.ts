import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import { tool } from '../primitives/tool.js';
import { reply, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { EmptyAnswerError, nonEmptyAnswer } from './empty-answer.js';
import { RunContext } from './run-context.js';

describe('nonEmptyAnswer', () => {
  it('takes a non-empty answer at once', async () => {
    let asked = 0;
    const answer = await nonEmptyAnswer('director', undefined, async () => {
      asked += 1;
      return 'Ship it.';
    });
    expect(answer).toBe('Ship it.');
    expect(asked).toBe(1);
  });

  it('has the Agent ask its model once more for the final answer only, never re-running its tools', async () => {
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (e) => events.push(e) });
    let looked = 0;
    const lookup = tool({
      name: 'lookup',
      description: 'Looks the order up.',
      parameters: z.object({}),
      execute: () => {
        looked += 1;
        return 'order A-17: refunded';
      },
    });
    const model = new ScriptedModel([toolCall('lookup', {}), reply('  \n'), reply('A-17 is refunded.')]);
    const agent = new Agent({ name: 'aggregator', model, tools: [lookup] });
    let asked = 0;
    const answer = await nonEmptyAnswer('aggregator', context, () => {
      asked += 1;
      return agent.run('Where is A-17?', { context });
    });
    expect(answer.output).toBe('A-17 is refunded.');
    expect(asked).toBe(1);
    expect(looked).toBe(1);
    expect(model.calls).toHaveLength(3);
    // The retry is the same request as the blank answer's: no blank turn added to it.
    expect(model.calls[2]!.messages).toEqual(model.calls[1]!.messages);
    expect(events.filter((e) => e.type === 'answer.empty')).toMatchObject([
      { agent: 'aggregator', attempt: 1 },
    ]);
  });

  it('fails with EmptyAnswerError (NO_ANSWER) when the retry is blank too, the member run once', async () => {
    const context = new RunContext({});
    const agent = new Agent({ name: 'judge', model: new ScriptedModel([reply(''), reply(' ')]) });
    let asked = 0;
    const outcome = nonEmptyAnswer('judge', context, () => {
      asked += 1;
      return agent.run('Verdict?', { context });
    });
    await expect(outcome).rejects.toBeInstanceOf(EmptyAnswerError);
    await expect(outcome).rejects.toMatchObject({ code: 'NO_ANSWER', member: 'judge', attempts: 2 });
    expect(asked).toBe(1);
  });

  it('never asks a member that is no Agent of this run again: blank is a NO_ANSWER failure', async () => {
    let asked = 0;
    const outcome = nonEmptyAnswer('judge', undefined, async () => {
      asked += 1;
      return '';
    });
    await expect(outcome).rejects.toMatchObject({ code: 'NO_ANSWER', member: 'judge', attempts: 1 });
    expect(asked).toBe(1);
  });

  it('takes a value that is no final answer (textOf gives undefined) as it is', async () => {
    const turn = await nonEmptyAnswer(
      'triage',
      undefined,
      async () => ({ output: '', handoff: 'billing' }),
      (t) => (t.handoff ? undefined : t.output),
    );
    expect(turn.handoff).toBe('billing');
  });
});
