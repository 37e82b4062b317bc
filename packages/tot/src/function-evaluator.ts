import type { SearchRun } from './search-run.js';
import type { ThoughtEvaluator } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';
import { applyRatings } from './value-evaluator.js';

/** A programmatic evaluator, rated like `'value'`: `nEvaluateSamples` calls per candidate, averaged. */
export async function functionEvaluate(
  evaluator: ThoughtEvaluator,
  run: SearchRun,
  candidates: ThoughtNode[],
): Promise<void> {
  await Promise.all(
    candidates.map(async (node) => {
      const input = {
        task: run.task,
        steps: node.steps,
        content: node.content,
        depth: node.depth,
        isFinal: node.isFinal,
        ...(run.ctx.signal && { signal: run.ctx.signal }),
      };
      const ratings = await Promise.all(
        Array.from({ length: run.options.nEvaluateSamples }, () =>
          run.attempt('evaluate', node, async () => checkedRating(await evaluator(input))),
        ),
      );
      applyRatings(
        run,
        node,
        ratings.filter((r) => r !== undefined),
      );
    }),
  );
}

function checkedRating(rating: unknown): { score: number; evaluation: string } {
  const { score, evaluation } =
    typeof rating === 'number'
      ? { score: rating, evaluation: undefined }
      : ((rating ?? {}) as { score?: unknown; evaluation?: unknown });
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    throw new RangeError(`the evaluator returned ${JSON.stringify(rating)}; expected a score from 0 to 1.`);
  }
  return { score, evaluation: typeof evaluation === 'string' ? evaluation : `score ${score}` };
}
