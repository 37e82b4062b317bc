import type { SearchActions } from './search-actions.js';
import { byPromise, isOpen, isSolution, type ThoughtNode } from './thought-node.js';

/**
 * Breadth-first search: expands every kept node of a level, evaluates the level's candidates
 * together, keeps the best `breadth` open ones, and stops once its best solution scores at least as
 * high as every open partial path. Returns the best solution, or `null`.
 */
export async function bfs(
  root: ThoughtNode,
  search: SearchActions,
  { breadth, maxDepth }: { breadth: number; maxDepth: number },
): Promise<ThoughtNode | null> {
  let frontier = [root];
  let best: ThoughtNode | null = null;
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const expanding = frontier.slice(0, search.expansionsLeft());
    if (expanding.length === 0) break;
    const level = (await Promise.all(expanding.map((node) => search.generate(node)))).flat();
    await search.evaluate(level);
    for (const solution of level.filter(isSolution)) {
      if (!best || solution.score! > best.score!) best = solution;
    }
    frontier = level.filter(isOpen).sort(byPromise).slice(0, breadth);
    const bestScore = best?.score;
    if (bestScore != null && frontier.every((open) => bestScore >= open.score!)) break;
  }
  return best;
}
