import type { SearchActions } from './search-actions.js';
import { byPromise, type ThoughtNode } from './thought-node.js';

/**
 * Depth-first search: follows the best child first and backtracks when a branch is pruned or runs
 * out. Returns the first solution it reaches, or `null`.
 */
export async function dfs(root: ThoughtNode, search: SearchActions): Promise<ThoughtNode | null> {
  const visit = async (node: ThoughtNode): Promise<ThoughtNode | null> => {
    if (search.expansionsLeft() === 0) return null;
    const children = await search.generate(node);
    await search.evaluate(children);
    for (const child of [...children].sort(byPromise)) {
      if (child.pruned || child.score === null) continue;
      if (child.isFinal) return child;
      const found = await visit(child);
      if (found) return found;
    }
    return null;
  };
  return visit(root);
}
