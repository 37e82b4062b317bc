import type { SwarmEvent } from '@swarm/core';

/**
 * Draws a trace as a tree of runs: each run (a topology, or a nested run of one) on its own line
 * with its calls, then its nested runs indented beneath it, in the order they started.
 */
export function traceTree(events: readonly SwarmEvent[]): string {
  const runs = new Map<string, { parent?: string; label: string; events: SwarmEvent[] }>();
  for (const event of events) {
    let run = runs.get(event.runId);
    if (!run) {
      const path = Array.isArray(event.path) ? (event.path as string[]) : [event.topology ?? 'run'];
      run = { label: path.at(-1) ?? 'run', events: [] };
      if (typeof event.parentRunId === 'string') run.parent = event.parentRunId;
      runs.set(event.runId, run);
    }
    run.events.push(event);
  }
  const lines: string[] = [];
  const draw = (runId: string, depth: number) => {
    const run = runs.get(runId)!;
    const end = run.events.find((e) => e.type === 'run.end' || e.type === 'run.error');
    const agents = [
      ...new Set(run.events.filter((e) => e.type === 'model.request').map((e) => e.agent ?? '?')),
    ];
    const calls = run.events.filter((e) => e.type === 'model.request').length;
    const extras = run.events
      .filter((e) => e.type === 'forest.route' || e.type === 'tool.call' || e.type === 'swarm.handoff')
      .map((e) =>
        e.type === 'tool.call' ? `${e.agent} called ${String(e.tool)}` : `${e.type} -> ${e.agent}`,
      );
    const status = end ? (end.type === 'run.error' ? `failed: ${String(end.error)}` : 'done') : 'open';
    lines.push(
      `${'  '.repeat(depth)}${run.label} [${runId.slice(0, 8)}] ${status}; ${calls} own call(s)` +
        (agents.length ? ` by ${agents.join(', ')}` : '') +
        (extras.length ? `; ${extras.join('; ')}` : ''),
    );
    for (const [id, child] of runs) if (child.parent === runId) draw(id, depth + 1);
  };
  for (const [id, run] of runs) if (!run.parent || !runs.has(run.parent)) draw(id, 0);
  return lines.join('\n');
}
