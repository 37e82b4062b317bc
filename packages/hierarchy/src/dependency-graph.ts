/** A unit of work that may wait for others: the shape both the director's orders and the planner's tasks share. */
export interface DependencyNode {
  id: string;
  dependsOn?: readonly string[] | undefined;
}

/**
 * What is wrong with a set of dependent items, as sentences a model can act on: duplicate ids,
 * dependencies on unknown ids or on the item itself, and cycles. Empty when the graph is sound.
 */
export function dependencyProblems(nodes: readonly DependencyNode[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const node of nodes) {
    if (ids.has(node.id)) problems.push(`two items have the id "${node.id}"; ids must be unique`);
    ids.add(node.id);
  }
  for (const node of nodes) {
    for (const dependency of node.dependsOn ?? []) {
      if (dependency === node.id) problems.push(`"${node.id}" depends on itself`);
      else if (!ids.has(dependency))
        problems.push(
          `"${node.id}" depends on "${dependency}", which is not an id of this plan (ids: ${[...ids].join(', ')})`,
        );
    }
  }
  const cycle = findCycle(nodes);
  if (cycle) problems.push(`the dependencies form a cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/**
 * The first dependency cycle found, as a path that starts and ends at the same id
 * (`['a', 'b', 'a']`), or undefined. Self-dependencies and unknown ids are left to
 * `dependencyProblems`.
 */
export function findCycle(nodes: readonly DependencyNode[]): string[] | undefined {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const seen = state.get(id);
    if (seen === 'done') return undefined;
    if (seen === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const next of byId.get(id)?.dependsOn ?? []) {
      if (next === id || !byId.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const node of nodes) {
    const cycle = visit(node.id);
    if (cycle) return cycle;
  }
  return undefined;
}
