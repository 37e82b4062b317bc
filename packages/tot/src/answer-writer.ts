import { z } from 'zod';
import { answerPrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import type { AnswerWriter } from './strategies.js';

const schema = z.object({ answer: z.string().min(1).describe('The final answer to the task.') });

/** `'model'`: one call writes the final answer from the best path (complete or partial). */
export async function modelAnswer(run: SearchRun, steps: string[], solved: boolean): Promise<string> {
  const prompt = answerPrompt({ task: run.task, steps, solved });
  const { answer } = await run.object('answer', {
    schema,
    name: 'final_answer',
    description: 'Write the final answer.',
    prompt,
  });
  return answer;
}

/** A programmatic answer writer: no model call, but it runs on a worker slot like every strategy call. */
export async function functionAnswer(
  writer: AnswerWriter,
  run: SearchRun,
  steps: string[],
  solved: boolean,
): Promise<string> {
  const answer = await run.workers.run(async () =>
    writer({ task: run.task, steps, solved, ...(run.ctx.signal && { signal: run.ctx.signal }) }),
  );
  if (typeof answer !== 'string')
    throw new TypeError(`the answer writer returned ${typeof answer}, not a string.`);
  return answer;
}
