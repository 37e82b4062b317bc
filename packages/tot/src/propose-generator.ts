import { z } from 'zod';
import { proposePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import { stepSchema } from './step-schema.js';
import type { ThoughtCandidate } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

/** `'propose'`: one call asks for `numThoughts` distinct next steps, each with its own final flag. */
export async function proposeThoughts(run: SearchRun, node: ThoughtNode): Promise<ThoughtCandidate[]> {
  const { numThoughts, maxDepth, thoughtDescription } = run.options;
  const schema = z.object({
    thoughts: z.array(stepSchema).min(1).describe(`Exactly ${numThoughts} distinct alternative next steps.`),
  });
  const prompt = proposePrompt({
    task: run.task,
    steps: node.steps,
    depth: node.depth + 1,
    maxDepth,
    thoughtDescription,
    count: numThoughts,
  });
  const proposed = await run.attempt('generate', node, () =>
    run.object('generate', {
      schema,
      name: 'propose_thoughts',
      description: 'Propose the next steps.',
      prompt,
    }),
  );
  return (proposed?.thoughts ?? []).map((t) => ({ content: t.thought, isFinal: t.isFinal }));
}
