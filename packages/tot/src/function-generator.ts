import { describeZodError } from '@swarm/core';
import { z } from 'zod';
import type { SearchRun } from './search-run.js';
import type { ThoughtCandidate, ThoughtGenerator } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

const candidatesSchema = z.array(z.object({ content: z.string(), isFinal: z.boolean() }));

/**
 * A programmatic generator, called once per expansion like a `'propose'` call; a throw or an output
 * that is not a list of `{ content, isFinal }` is a failed call and costs its candidates.
 */
export async function functionThoughts(
  generator: ThoughtGenerator,
  run: SearchRun,
  node: ThoughtNode,
): Promise<ThoughtCandidate[]> {
  const candidates = await run.attempt('generate', node, async () => {
    const output: unknown = await generator({
      task: run.task,
      steps: node.steps,
      depth: node.depth + 1,
      maxDepth: run.options.maxDepth,
      numThoughts: run.options.numThoughts,
      ...(run.ctx.signal && { signal: run.ctx.signal }),
    });
    const parsed = candidatesSchema.safeParse(output);
    if (!parsed.success) {
      throw new TypeError(
        `the generator returned no list of { content, isFinal }: ${describeZodError(parsed.error)}`,
      );
    }
    return parsed.data;
  });
  return candidates ?? [];
}
