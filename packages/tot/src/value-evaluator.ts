import { z } from 'zod';
import { valuePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import type { ThoughtNode } from './thought-node.js';

// Critique before score: the model reasons first, then commits to a number.
const schema = z.object({
  critique: z.string().describe('What is right or wrong about the step, and whether it leads to a solution.'),
  score: z.number().min(0).max(1).describe('0 = wrong or a dead end, 1 = correct and clearly promising.'),
});

/** `'value'`: rates each candidate `nEvaluateSamples` times on its own and averages the ratings. */
export async function valueEvaluate(run: SearchRun, candidates: ThoughtNode[]): Promise<void> {
  await Promise.all(candidates.map((node) => rate(run, node)));
}

async function rate(run: SearchRun, node: ThoughtNode): Promise<void> {
  const prompt = valuePrompt({
    task: run.task,
    steps: node.steps,
    isFinal: node.isFinal,
    evaluationCriteria: run.options.evaluationCriteria,
  });
  const ratings = await run.samples(run.options.nEvaluateSamples, 'evaluate', node, {
    schema,
    name: 'rate_thought',
    description: 'Rate the candidate step.',
    prompt,
  });
  const valid = ratings.filter((r) => r !== undefined);
  applyRatings(
    run,
    node,
    valid.map((r) => ({ score: r.score, evaluation: r.critique })),
  );
}

/**
 * Averages the ratings into the node's score. No rating at all scores 0, unless the budget ran out
 * first: then the node stays unevaluated rather than wrongly rejected.
 */
export function applyRatings(
  run: SearchRun,
  node: ThoughtNode,
  ratings: { score: number; evaluation: string }[],
): void {
  if (ratings.length === 0) {
    if (run.interruption) return;
    node.score = 0;
    node.evaluation = 'Every rating failed.';
    return;
  }
  node.score = ratings.reduce((sum, r) => sum + r.score, 0) / ratings.length;
  node.evaluation = ratings.map((r) => r.evaluation).join('\n---\n');
}
