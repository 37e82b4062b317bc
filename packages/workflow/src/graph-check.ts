import { ConfigError, isMember, type Member } from '@swarm/core';

/** A checked graph: nodes in declaration order, and each node's parents and children in that order. */
export interface CheckedGraph {
  ids: string[];
  members: Map<string, Member>;
  parents: Map<string, string[]>;
  children: Map<string, string[]>;
}

/**
 * Checks a graph's nodes and edges: every node an Agent or a Topology, every edge a pair of known
 * ids, no edge twice, no cycle. Throws a ConfigError naming the node, edge or cycle at fault.
 */
export function checkGraph(nodes: unknown, edges: unknown, owner = 'GraphWorkflow'): CheckedGraph {
  if (typeof nodes !== 'object' || nodes === null || Array.isArray(nodes)) {
    throw new ConfigError(`${owner}: nodes must be an object of { id: Agent or Topology }.`);
  }
  const members = new Map<string, Member>();
  for (const [id, member] of Object.entries(nodes)) {
    if (!isMember(member)) throw new ConfigError(`${owner}: nodes.${id} is neither an Agent nor a Topology.`);
    members.set(id, member);
  }
  if (members.size === 0) throw new ConfigError(`${owner}: nodes must hold at least one node.`);
  const ids = [...members.keys()];
  const parents = new Map(ids.map((id) => [id, [] as string[]]));
  const children = new Map(ids.map((id) => [id, [] as string[]]));
  if (edges !== undefined && !Array.isArray(edges)) {
    throw new ConfigError(`${owner}: edges must be an array of [from, to] pairs of node ids.`);
  }
  const known = ids.map((id) => `"${id}"`).join(', ');
  const seen = new Set<string>();
  (edges ?? []).forEach((edge: unknown, i: number) => {
    if (!Array.isArray(edge) || edge.length !== 2 || edge.some((end) => typeof end !== 'string')) {
      throw new ConfigError(`${owner}: edges[${i}] must be a [from, to] pair of node ids.`);
    }
    const [from, to] = edge as [string, string];
    for (const end of [from, to]) {
      if (!members.has(end))
        throw new ConfigError(`${owner}: edges[${i}] names an unknown node "${end}" (nodes: ${known}).`);
    }
    const key = JSON.stringify([from, to]);
    if (seen.has(key)) throw new ConfigError(`${owner}: edges[${i}] repeats the edge ${from} -> ${to}.`);
    seen.add(key);
    parents.get(to)!.push(from);
    children.get(from)!.push(to);
  });
  // Parents and children in declaration order, so inputs and scheduling do not depend on edge order.
  const rank = new Map(ids.map((id, i) => [id, i]));
  for (const list of [...parents.values(), ...children.values()])
    list.sort((a, b) => rank.get(a)! - rank.get(b)!);
  const cycle = findCycle(ids, children);
  if (cycle)
    throw new ConfigError(
      `${owner}: the edges form a cycle: ${cycle.join(' -> ')}; a graph workflow must be acyclic.`,
    );
  return { ids, members, parents, children };
}

/** One cycle of the graph as a path that ends where it starts, or undefined when there is none. */
export function findCycle(
  ids: readonly string[],
  children: ReadonlyMap<string, readonly string[]>,
): string[] | undefined {
  const state = new Map<string, 'open' | 'closed'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'closed') return undefined;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const child of children.get(id) ?? []) {
      const cycle = visit(child);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'closed');
    return undefined;
  };
  for (const id of ids) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Every node reachable from `id` along edges, not `id` itself. */
export function descendants(id: string, children: ReadonlyMap<string, readonly string[]>): Set<string> {
  const found = new Set<string>();
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (found.has(next)) continue;
    found.add(next);
    stack.push(...(children.get(next) ?? []));
  }
  return found;
}
