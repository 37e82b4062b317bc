import { z } from 'zod';
import { answerPrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import type { AnswerWriter } from './strategies.js';

const schema = z.object({ answer: z.string().min(1).describe('The final answer to the task.') });

/**
 * `'model'`: one call writes the final answer from the best path (complete or partial); with
 * `answerSchema` the answer is that object (validated, repaired), and its JSON is the text.
 */
export async function modelAnswer(
  run: SearchRun,
  steps: string[],
  solved: boolean,
): Promise<{ answer: string; finalOutput?: unknown }> {
  const prompt = answerPrompt({ task: run.task, steps, solved });
  const request = { name: 'final_answer', description: 'Write the final answer.', prompt };
  const typed = run.options.answerSchema;
  if (typed) {
    const finalOutput = await run.object('answer', { ...request, schema: typed });
    return { answer: JSON.stringify(finalOutput), finalOutput };
  }
  const { answer } = await run.object('answer', { ...request, schema });
  return { answer };
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
