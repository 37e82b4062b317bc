/** One simulated call of a run, as the recording model or embedder saw it. */
export interface CallRecord {
  /** Numbers the call in the run, from 1; its output carries `marker(id)`. */
  id: number;
  kind: 'model' | 'embed';
  /** Start and end, in milliseconds on one clock (`performance.now()`). */
  start: number;
  end: number;
  /** The simulated latency of the call: what it costs on the critical path. */
  latencyMs: number;
  /** Everything the call was given (system, turns, tools, texts), as one string. */
  input: string;
  /**
   * The output is a decision the topology acts on (a function call, an embedding) rather than text
   * it passes on, so its influence can be invisible in later inputs.
   */
  decision: boolean;
}

/** The longest chain of dependent calls of a run and what it costs at the simulated latencies. */
export interface CriticalPath {
  /** Sum of the simulated latencies along the chain. */
  ms: number;
  /** The ids of the calls on the chain, first to last. */
  chain: number[];
}

/** The mark a call's output carries, so a later call's input shows that it depends on it. */
export function marker(id: number): string {
  return `⟨c${id}⟩`;
}

const markerPattern = /⟨c(\d+)⟩/g;

/** The ids of the calls whose output `input` contains. */
export function markersIn(input: string): Set<number> {
  return new Set([...input.matchAll(markerPattern)].map((m) => Number(m[1])));
}

/**
 * The critical path of a run from its call log: a call depends on (1) every call whose output
 * mark appears in its input (data), and (2) if it is a model call, every decision that ended
 * before it started, was given no output the call was not given, and shares one of `tasks` with
 * it if it was given any (control: a route, a score or an embedding on the same task and
 * outputs). A call that only waited for unrelated calls (a capped pool, one task after another)
 * gets no dependency from the wait, so the wall time shows the wait against this path.
 */
export function criticalPath(calls: readonly CallRecord[], tasks: readonly string[]): CriticalPath {
  const ordered = [...calls].sort((a, b) => a.start - b.start || a.id - b.id);
  const byId = new Map(ordered.map((c) => [c.id, c]));
  const keys = new Map(ordered.map((c) => [c.id, inputKeys(c.input, tasks)]));
  const best = new Map<number, { ms: number; previous: number | undefined }>();
  for (const call of ordered) {
    const own = keys.get(call.id)!;
    let previous: number | undefined;
    let before = 0;
    for (const other of ordered) {
      if (other.id === call.id || other.end > call.start) continue;
      const dataDependency = own.has(`c${other.id}`);
      // An embedding is a function of its texts alone: no decision is needed to make one.
      const controlDependency = call.kind === 'model' && other.decision && informs(keys.get(other.id)!, own);
      if (!dataDependency && !controlDependency) continue;
      const path = best.get(other.id)?.ms ?? 0;
      if (path > before) {
        before = path;
        previous = other.id;
      }
    }
    best.set(call.id, { ms: before + call.latencyMs, previous });
  }
  let last: number | undefined;
  let ms = 0;
  for (const [id, entry] of best) {
    if (entry.ms > ms) {
      ms = entry.ms;
      last = id;
    }
  }
  const chain: number[] = [];
  for (let id = last; id !== undefined; id = best.get(id)!.previous) {
    if (!byId.has(id)) break;
    chain.unshift(id);
  }
  return { ms, chain };
}

function inputKeys(input: string, tasks: readonly string[]): Set<string> {
  const keys = new Set([...markersIn(input)].map((id) => `c${id}`));
  tasks.forEach((task, i) => {
    if (input.includes(task)) keys.add(`task${i}`);
  });
  return keys;
}

// A decision informs a later call when the call was given every output the decision was given,
// and, if the decision was about tasks, at least one of them (one embedding call may cover a batch).
function informs(decision: ReadonlySet<string>, call: ReadonlySet<string>): boolean {
  let tasks = 0;
  let shared = 0;
  for (const key of decision) {
    if (key.startsWith('task')) {
      tasks += 1;
      if (call.has(key)) shared += 1;
    } else if (!call.has(key)) return false;
  }
  return tasks === 0 || shared > 0;
}
