import type { SearchRun } from './search-run.js';
import type { ThoughtCandidate, ThoughtGenerator } from './strategies.js';
import type { ThoughtNode } from './thought-node.js';

/** A programmatic generator, called once per expansion like a `'propose'` call; a throw costs its candidates. */
export async function functionThoughts(
  generator: ThoughtGenerator,
  run: SearchRun,
  node: ThoughtNode,
): Promise<ThoughtCandidate[]> {
  const candidates = await run.attempt('generate', node, () =>
    generator({
      task: run.task,
      steps: node.steps,
      depth: node.depth + 1,
      maxDepth: run.options.maxDepth,
      numThoughts: run.options.numThoughts,
      ...(run.ctx.signal && { signal: run.ctx.signal }),
    }),
  );
  return (candidates ?? []).filter((c) => typeof c?.content === 'string' && typeof c.isFinal === 'boolean');
}
