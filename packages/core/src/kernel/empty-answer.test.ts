import { describe, expect, it } from 'vitest';
import type { SwarmEvent } from '../contracts/events.js';
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

  it('asks once more after an empty answer, with answer.empty in the trace', async () => {
    const events: SwarmEvent[] = [];
    const context = new RunContext({ onEvent: (e) => events.push(e) });
    const answers = ['  \n', 'Second try.'];
    const answer = await nonEmptyAnswer('aggregator', context, async () => ({ output: answers.shift()! }));
    expect(answer).toEqual({ output: 'Second try.' });
    expect(events).toMatchObject([{ type: 'answer.empty', agent: 'aggregator', attempt: 1 }]);
  });

  it('fails with EmptyAnswerError (NO_ANSWER) when the retry is empty too', async () => {
    let asked = 0;
    const outcome = nonEmptyAnswer('judge', undefined, async () => {
      asked += 1;
      return '';
    });
    await expect(outcome).rejects.toBeInstanceOf(EmptyAnswerError);
    await expect(outcome).rejects.toMatchObject({ code: 'NO_ANSWER', member: 'judge', attempts: 2 });
    expect(asked).toBe(2);
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
