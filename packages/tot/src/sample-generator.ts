import { z } from 'zod';
import { samplePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import type { ThoughtCandidate } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

const schema = z.object({
  thought: z.string().min(1).describe('The next step, self-contained.'),
  isFinal: z.boolean().describe('True only if this step completes the task.'),
});

/** `'sample'`: `numThoughts` independent calls, one step each; a failed call loses only its step. */
export async function sampleThoughts(run: SearchRun, node: ThoughtNode): Promise<ThoughtCandidate[]> {
  const { numThoughts, maxDepth, thoughtDescription } = run.options;
  const prompt = samplePrompt({
    task: run.task,
    steps: node.steps,
    depth: node.depth + 1,
    maxDepth,
    thoughtDescription,
  });
  const samples = await Promise.all(
    Array.from({ length: numThoughts }, () =>
      run.attempt('generate', node, () =>
        run.object('generate', { schema, name: 'next_thought', description: 'Write the next step.', prompt }),
      ),
    ),
  );
  return samples.flatMap((s) => (s ? [{ content: s.thought, isFinal: s.isFinal }] : []));
}
