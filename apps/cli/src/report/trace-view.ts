import type { SwarmEvent, Usage } from '@swarm/core';
import { toJson } from '../json-output.js';

/** One run of a trace (a topology, or a run nested in it), with what it cost by itself. */
export interface RunView {
  runId: string;
  parentRunId?: string;
  label: string;
  depth: number;
  calls: number;
  tokens: number;
  status: 'done' | 'failed' | 'paused' | 'open';
  error?: string;
}

/** One node of a Tree of Thoughts, rebuilt from `tot.*` events. */
export interface ThoughtView {
  id: string;
  parent?: string;
  content: string;
  depth: number;
  score?: number;
  status: string;
  /** Why the validator rejected it (coordinated Tree of Thoughts). */
  reason?: string;
  /** One of the nodes the answer was synthesized from. */
  synthesized?: boolean;
}

/** What a report shows, derived from the trace alone (a trace is enough to redraw a run). */
export interface TraceView {
  runs: RunView[];
  routes: {
    agent: string;
    tree?: string;
    score?: number;
    similarity?: number;
    keywords: string[];
    strategy?: string;
    runnerUp?: string;
  }[];
  handoffs: { from: string; to: string; message: string }[];
  thoughts: ThoughtView[];
  orders: { id: string; agent: string; task: string; status: string; detail: string }[];
  bids: { round: number; agent: string; score: number; adjusted?: number; speaker: boolean }[];
  /**
   * `tokens` is the reported total, as text when a provider sent something other than a number;
   * `replayed` when the run's journal answered the call, not the model.
   */
  calls: {
    agent: string;
    purpose: string;
    model: string;
    tokens: number | string;
    finishReason: string;
    replayed: boolean;
    /** When the call was asked (its `model.request`) and answered (its `model.response`), as traced. */
    startedAt?: string;
    endedAt?: string;
    /** The provider's own id of the response, when the event carries it. */
    responseId?: string;
    /** The model that answered, as the provider reported it, when the event carries it. */
    responseModel?: string;
    /** The model's reasoning text, when the event carries it (shown collapsed). */
    reasoning?: string;
  }[];
  /** Every guardrail check of the run and its nested runs, in order: what it guarded, and whether it tripped. */
  guardrails: { guardrail: string; kind: string; tripped: boolean; info: string; path: string[] }[];
  /** The calls a paused run waits for a person to decide, as its outermost `run.paused` lists them. */
  pending: PendingView[];
  counts: [string, number][];
}

/** A tool call waiting for approval, as a trace tells it (every field as text, for drawing). */
export interface PendingView {
  id: string;
  agent: string;
  tool: string;
  /** The arguments as JSON. */
  arguments: string;
  path: string[];
}

const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? fallback
      : JSON.stringify(value);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Rebuilds the runs, routes, handoffs, thoughts, orders, bids and calls of a run from its events. */
export function traceView(events: readonly SwarmEvent[]): TraceView {
  const runs = new Map<string, RunView>();
  const counts = new Map<string, number>();
  const view: TraceView = {
    runs: [],
    routes: [],
    handoffs: [],
    thoughts: [],
    orders: [],
    bids: [],
    calls: [],
    pending: [],
    guardrails: [],
    counts: [],
  };
  const thoughts = new Map<string, ThoughtView>();
  let rejectedCount = 0;
  const orders = new Map<string, TraceView['orders'][number]>();
  // When each call was asked, by its callId, for the time it took.
  const asked = new Map<string, string>();

  for (const e of events) {
    counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
    let run = runs.get(e.runId);
    if (!run) {
      const path = Array.isArray(e.path) ? (e.path as string[]) : [];
      const parent = typeof e.parentRunId === 'string' ? runs.get(e.parentRunId) : undefined;
      run = {
        runId: e.runId,
        label: str(path.at(-1) ?? e.topology, 'run'),
        depth: parent ? parent.depth + 1 : 0,
        calls: 0,
        tokens: 0,
        status: 'open',
        ...(typeof e.parentRunId === 'string' && { parentRunId: e.parentRunId }),
      };
      runs.set(e.runId, run);
    }
    switch (e.type) {
      case 'run.end':
        run.status = 'done';
        break;
      case 'run.error':
        run.status = 'failed';
        run.error = str(e.error);
        break;
      case 'run.paused':
      case 'agent.paused':
        run.status = 'paused';
        // What the whole run waits for: the outermost run's pause lists every branch's calls.
        if (e.type === 'run.paused' && e.parentRunId === undefined && Array.isArray(e.pending)) {
          view.pending = (e.pending as Record<string, unknown>[]).map((p) => ({
            id: str(p?.id),
            agent: str(p?.agent),
            tool: str(p?.tool),
            arguments: toJson(p?.arguments ?? {}, 0),
            path: Array.isArray(p?.path) ? p.path.map((step) => str(step)) : [],
          }));
        }
        break;
      case 'model.request':
        run.calls += 1;
        if (typeof e.callId === 'string') asked.set(e.callId, str(e.at));
        break;
      case 'model.response': {
        // Only numbers add up: a total that is not one is shown as the text it is, never summed.
        const reported: unknown = (e.usage as Partial<Record<keyof Usage, unknown>> | undefined)?.totalTokens;
        const tokens = num(reported);
        run.tokens += tokens ?? 0;
        view.calls.push({
          agent: str(e.agent),
          purpose: str(e.purpose),
          model: str(e.model),
          tokens: tokens ?? str(reported, '0'),
          finishReason: str(e.finishReason),
          replayed: e.replayed === true,
          ...(typeof e.callId === 'string' && asked.has(e.callId) && { startedAt: asked.get(e.callId) }),
          endedAt: str(e.at),
          ...(typeof e.responseId === 'string' && e.responseId !== '' && { responseId: e.responseId }),
          ...(typeof e.responseModel === 'string' &&
            e.responseModel !== '' && { responseModel: e.responseModel }),
          ...(reasoningOf(e.reasoning) !== undefined && { reasoning: reasoningOf(e.reasoning) }),
        });
        break;
      }
      case 'forest.route': {
        const d = (e.decision ?? {}) as Record<string, unknown>;
        view.routes.push({
          agent: str(d.agent ?? e.agent),
          ...(typeof d.tree === 'string' && { tree: d.tree }),
          ...(num(d.score) !== undefined && { score: num(d.score) }),
          ...(num(d.similarity) !== undefined && { similarity: num(d.similarity) }),
          keywords: Array.isArray(d.keywordMatches) ? d.keywordMatches.map((k) => str(k)) : [],
          ...(typeof d.strategy === 'string' && { strategy: d.strategy }),
          ...(d.runnerUp !== undefined && {
            runnerUp: str((d.runnerUp as { agent?: unknown }).agent ?? d.runnerUp),
          }),
        });
        break;
      }
      case 'swarm.handoff':
        view.handoffs.push({ from: str(e.from ?? e.agent), to: str(e.to), message: str(e.message) });
        break;
      case 'tot.expand': {
        const parentId = str(e.nodeId);
        if (!thoughts.has(parentId)) {
          thoughts.set(parentId, {
            id: parentId,
            content: '(task)',
            depth: num(e.depth) ?? 0,
            status: 'root',
          });
        }
        for (const c of (e.candidates ?? []) as { id: unknown; content: unknown; isFinal?: unknown }[]) {
          thoughts.set(str(c.id), {
            id: str(c.id),
            parent: parentId,
            content: str(c.content),
            depth: (num(e.depth) ?? 0) + 1,
            status: c.isFinal ? 'final' : 'generated',
          });
        }
        break;
      }
      case 'tot.node': {
        const n = (e.node ?? e) as Record<string, unknown>;
        // A node the validator rejected never entered the tree (its id may even be taken): drawn apart.
        const rejected = e.change === 'rejected';
        const id = rejected ? `rejected:${rejectedCount++}` : str(n.id ?? n.nodeId);
        const parent = n.parent ?? n.parentId;
        thoughts.set(id, {
          id,
          ...(typeof parent === 'string' && { parent }),
          content: str(n.thought ?? n.content),
          depth: num(n.depth) ?? 0,
          ...(num(n.score) !== undefined && { score: num(n.score) }),
          status: rejected ? 'rejected' : str(n.status, 'generated'),
          ...(rejected && { reason: str(e.reason) }),
        });
        break;
      }
      case 'tot.synthesize':
        for (const picked of (e.nodes ?? []) as { id?: unknown }[]) {
          const node = thoughts.get(str(picked.id));
          if (node) node.synthesized = true;
        }
        break;
      case 'tot.evaluate': {
        const node = thoughts.get(str(e.nodeId ?? (e.node as { id?: unknown } | undefined)?.id));
        if (node) {
          const score = num(e.score);
          if (score !== undefined) node.score = score;
          if (node.status === 'generated') node.status = 'evaluated';
          if (typeof e.status === 'string') node.status = e.status;
        }
        break;
      }
      case 'tot.prune': {
        const node = thoughts.get(str(e.nodeId));
        if (node) node.status = 'pruned';
        break;
      }
      case 'tot.solution': {
        const node = thoughts.get(str(e.nodeId));
        if (node) node.status = 'solution';
        break;
      }
      case 'hierarchy.plan':
      case 'planner.plan': {
        const items = (e.type === 'hierarchy.plan' ? e.orders : e.tasks) as
          | Record<string, unknown>[]
          | undefined;
        for (const item of items ?? []) {
          const id = `${num(e.loop) ?? 0}:${str(item.id)}`;
          orders.set(id, {
            id: str(item.id),
            agent: str(item.agentName),
            task: str(item.task),
            status: 'planned',
            detail: '',
          });
        }
        break;
      }
      case 'hierarchy.order.start':
      case 'hierarchy.order.end':
      case 'planner.task.start':
      case 'planner.task.end': {
        const id = `${num(e.loop) ?? 0}:${str(e.id)}`;
        const order = orders.get(id) ?? { id: str(e.id), agent: '', task: '', status: 'planned', detail: '' };
        if (e.agent) order.agent = str(e.agent);
        order.status = e.type.endsWith('.start') ? 'running' : str(e.status, 'done');
        if (e.error !== undefined) order.detail = str(e.error);
        orders.set(id, order);
        break;
      }
      case 'groupchat.bid': {
        const round = num(e.round) ?? 0;
        for (const b of (e.bids ?? []) as Record<string, unknown>[]) {
          const adjusted = num(b.adjusted);
          view.bids.push({
            round,
            agent: str(b.agent),
            score: num(b.score) ?? 0,
            ...(adjusted !== undefined && { adjusted }),
            speaker: false,
          });
        }
        break;
      }
      case 'guardrail.pass':
      case 'guardrail.trip':
        view.guardrails.push({
          guardrail: str(e.guardrail),
          kind: str(e.kind),
          tripped: e.type === 'guardrail.trip',
          info: e.info === undefined ? '' : toJson(e.info, 0),
          path: Array.isArray(e.path) ? e.path.map((step) => str(step)) : [],
        });
        break;
      case 'groupchat.message': {
        const last = view.bids.at(-1)?.round;
        const winner = view.bids.find((b) => b.round === last && b.agent === e.agent);
        if (winner) winner.speaker = true;
        break;
      }
    }
  }
  view.runs = [...runs.values()];
  view.thoughts = [...thoughts.values()];
  view.orders = [...orders.values()];
  view.counts = [...counts.entries()];
  return view;
}

/** A call's reasoning as an event may carry it: its text, or a `Reasoning` object with `text`. */
function reasoningOf(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : (value as { text?: unknown } | null | undefined)?.text;
  return typeof text === 'string' && text !== '' ? text : undefined;
}
