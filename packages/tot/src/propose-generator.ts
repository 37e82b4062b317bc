import { z } from 'zod';
import { proposePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import { stepSchema } from './step-schema.js';
import type { ThoughtCandidate } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

// One schema per count, made once: core converts a schema to JSON Schema once per schema object.
const proposeSchemas = new Map<number, ReturnType<typeof makeProposeSchema>>();

function makeProposeSchema(count: number) {
  return z.object({
    thoughts: z.array(stepSchema).min(1).describe(`Exactly ${count} distinct alternative next steps.`),
  });
}

function proposeSchema(count: number) {
  const cached = proposeSchemas.get(count);
  if (cached !== undefined) return cached;
  const schema = makeProposeSchema(count);
  proposeSchemas.set(count, schema);
  return schema;
}

/** `'propose'`: one call asks for `numThoughts` distinct next steps, each with its own final flag. */
export async function proposeThoughts(run: SearchRun, node: ThoughtNode): Promise<ThoughtCandidate[]> {
  const { numThoughts, maxDepth, thoughtDescription } = run.options;
  const schema = proposeSchema(numThoughts);
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
