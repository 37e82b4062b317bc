import { samplePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import { stepSchema } from './step-schema.js';
import type { ThoughtCandidate } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

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
  const samples = await run.samples(numThoughts, 'generate', node, {
    schema: stepSchema,
    name: 'next_thought',
    description: 'Write the next step.',
    prompt,
  });
  return samples.flatMap((s) => (s ? [{ content: s.thought, isFinal: s.isFinal }] : []));
}
