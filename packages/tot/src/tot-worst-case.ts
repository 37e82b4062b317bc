import type { WorstCase } from '@swarm/core';
import { type ResolvedOptions, resolveOptions, type TreeOfThoughtsOptions } from './options.js';

/**
 * The most model calls one search can make: the seed's Cost table, computed. The worst case is a
 * model that never flags a step final before `maxDepth`, never repeats a step, rates every step
 * above `valueThreshold` (DFS: every leaf below it, so the search never stops early) and needs
 * every repair `agentOptions.maxRepairs` allows. Programmatic strategies cost no model call.
 */
export function treeOfThoughtsWorstCase(options: TreeOfThoughtsOptions = {}): WorstCase {
  const o = resolveOptions(options);
  const perCall = 1 + o.maxRepairs;
  const t = o.numThoughts;
  const generation =
    o.generationStrategy === 'propose' ? perCall : o.generationStrategy === 'sample' ? t * perCall : 0;
  const answer = o.answerStrategy === 'model' ? perCall : 0;
  // Calls to evaluate the candidates of one comparison: each rated k times, or one vote of k ballots.
  const evaluation = (candidates: number): number => {
    if (o.evaluationStrategy === 'value') return candidates * o.nEvaluateSamples * perCall;
    if (o.evaluationStrategy === 'vote') return candidates > 1 ? o.nEvaluateSamples * perCall : 0;
    return 0;
  };
  const search =
    o.searchAlgorithm === 'bfs' ? bfsCalls(o, generation, evaluation) : dfsCalls(o, generation, evaluation);
  if (search === undefined) {
    return {
      maxCalls: undefined,
      reason: `a DFS of ${t} thoughts over ${o.maxDepth} levels may expand more than ${Number.MAX_SAFE_INTEGER} nodes; set maxExpansions`,
    };
  }
  return { maxCalls: search + answer };
}

// BFS expands every kept node of a level (at most `breadth`, fewer when the level above gave fewer
// candidates) and compares the level's candidates together, for `maxDepth` levels.
function bfsCalls(o: ResolvedOptions, generation: number, evaluation: (n: number) => number): number {
  let left = o.maxExpansions ?? Number.POSITIVE_INFINITY;
  let frontier = 1;
  let calls = 0;
  for (let depth = 1; depth <= o.maxDepth; depth++) {
    const expanding = Math.min(frontier, left);
    if (expanding === 0) break;
    left -= expanding;
    const candidates = expanding * o.numThoughts;
    calls += expanding * generation + evaluation(candidates);
    frontier = Math.min(o.breadth, candidates);
  }
  return calls;
}

// DFS expands the whole tree, 1 + t + ... + t^(D-1) nodes, up to maxExpansions; each expansion's
// candidates are compared together.
function dfsCalls(
  o: ResolvedOptions,
  generation: number,
  evaluation: (n: number) => number,
): number | undefined {
  const cap = o.maxExpansions ?? Number.POSITIVE_INFINITY;
  let nodes = 0;
  let level = 1;
  for (let depth = 0; depth < o.maxDepth && nodes < cap; depth++) {
    nodes += level;
    level *= o.numThoughts;
  }
  const expansions = Math.min(nodes, cap);
  const calls = expansions * (generation + evaluation(o.numThoughts));
  return Number.isSafeInteger(calls) ? calls : undefined;
}
