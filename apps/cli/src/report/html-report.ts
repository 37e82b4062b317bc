import type { SwarmEvent, TopologyResult } from '@swarm/core';
import { toJson } from '../json-output.js';
import { type Html, html } from './html.js';
import { type RunView, type ThoughtView, type TraceView, traceView } from './trace-view.js';

/** What a report is made of: the run's result and its whole trace. */
export interface ReportInput {
  title: string;
  task: string;
  result?: TopologyResult;
  error?: string;
  /** The command that resumes the run, when it paused with a journal to resume from. */
  resume?: string;
  events: readonly SwarmEvent[];
}

/** Most rows a long table (model calls, events) draws; the rest are counted, and the trace file has them all. */
export const maxTableRows = 2000;
const more = (total: number, what: string) =>
  total > maxTableRows
    ? html`<p class="muted" data-more>Showing the first ${maxTableRows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${what}; the trace file (--trace) has them all.</p>`
    : undefined;
const fixed = (n: number | undefined, digits = 3) =>
  n === undefined ? '' : Number(n.toFixed(digits)).toString();

/**
 * A self-contained HTML page (inline CSS, no script, no network) that draws a run from its trace:
 * the nested runs, the forest's routes, the handoff path, the director's orders, the bids, the
 * tree of thoughts with scores and pruned branches, every model call, usage and totals. Every
 * value of the trace is written as text (through `html`), whatever type it arrives with.
 */
export function htmlReport(input: ReportInput): string {
  const view = traceView(input.events);
  const started = input.events[0]?.at;
  const ended = input.events.at(-1)?.at;
  const elapsed = (Date.parse(String(ended)) - Date.parse(String(started))) / 1000;
  const seconds = Number.isFinite(elapsed) ? elapsed : 0;
  const usage = input.result?.usage;
  const sections = [
    summary(input, view, seconds),
    view.pending.length ? pendingSection(view, input.resume) : undefined,
    view.guardrails.length ? guardrailsSection(view) : undefined,
    runsSection(view),
    view.routes.length ? routesSection(view) : undefined,
    view.handoffs.length ? handoffSection(view) : undefined,
    view.orders.length ? ordersSection(view) : undefined,
    view.bids.length ? bidsSection(view) : undefined,
    view.thoughts.length ? thoughtsSection(view) : undefined,
    callsSection(view, usage?.totalTokens),
    eventsSection(input.events, view),
  ].filter((section) => section !== undefined);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title}</title>
${pageStyle}
</head>
<body>
${sections.map((section) => html`${section}\n`)}</body>
</html>
`.markup;
}

function summary(input: ReportInput, view: TraceView, seconds: number): Html {
  const r = input.result;
  const calls = r?.llmCalls ?? view.calls.length;
  const replayed = view.calls.filter((c) => c.replayed).length;
  const status = input.error
    ? html`<p class="failed" data-status="failed">Failed: ${input.error}</p>`
    : view.pending.length > 0 && !r
      ? html`<p data-status="paused"><span class="tag paused">paused</span> waits for approval of ${view.pending.length} tool call(s)</p>`
      : r?.interrupted
        ? html`<p data-status="interrupted"><span class="tag">interrupted</span> <span data-interruption>${r.interruptionReason}</span></p>`
        : html`<p data-status="done" class="muted">Completed</p>`;
  return html`<section id="summary">
<h1>${input.title}</h1>
<p class="muted">Task</p><p data-task>${input.task}</p>
${r ? html`<p class="muted">Answer</p><div class="answer" data-output>${r.output}</div>` : undefined}
${status}
<div class="stats">
<div><b data-llm-calls>${calls}</b><span class="muted">model calls${replayed > 0 ? html` (<span data-replayed-calls>${replayed}</span> replayed from the journal, <span data-live-calls>${view.calls.length - replayed}</span> live)` : undefined}</span></div>
<div><b data-total-tokens>${r?.usage.totalTokens ?? 0}</b><span class="muted">tokens (<span data-input-tokens>${r?.usage.inputTokens ?? 0}</span> in, <span data-output-tokens>${r?.usage.outputTokens ?? 0}</span> out)</span></div>
<div><b>${seconds.toFixed(2)} s</b><span class="muted">elapsed</span></div>
<div><b>${input.events.length}</b><span class="muted">events</span></div>
</div>
</section>`;
}

function pendingSection(view: TraceView, resume: string | undefined): Html {
  const rows = view.pending.map(
    (p) =>
      html`<tr data-pending="${p.id}"><td><code>${p.id}</code></td><td>${p.agent}</td><td><b>${p.tool}</b></td><td><code>${p.arguments}</code></td><td>${p.path.join(' > ')}</td></tr>`,
  );
  return html`<section id="pending"><h2>Waiting for approval</h2><p class="muted">The run paused: these tool calls run only once a person approves them.</p><table><tr><th>id</th><th>agent</th><th>tool</th><th>arguments</th><th>in</th></tr>${rows}</table>${resume ? html`<p class="muted">Resume it, approving every call:</p><pre data-resume>${resume}</pre>` : undefined}</section>`;
}

function guardrailsSection(view: TraceView): Html {
  const rows = view.guardrails.map(
    (g) =>
      html`<tr data-guardrail="${g.guardrail}" data-tripped="${String(g.tripped)}"><td><b>${g.guardrail}</b></td><td>${g.kind}</td><td>${g.tripped ? html`<span class="tag failed">tripped</span>` : 'passed'}</td><td><code>${g.info}</code></td><td>${g.path.join(' > ')}</td></tr>`,
  );
  return html`<section id="guardrails"><h2>Guardrails</h2><table><tr><th>guardrail</th><th>checks</th><th>result</th><th>info</th><th>in</th></tr>${rows}</table></section>`;
}

function runsSection(view: TraceView): Html {
  const known = new Set(view.runs.map((r) => r.runId));
  const byParent = new Map<string | undefined, RunView[]>();
  for (const r of view.runs) {
    const key = r.parentRunId !== undefined && known.has(r.parentRunId) ? r.parentRunId : undefined;
    const siblings = byParent.get(key);
    if (siblings) siblings.push(r);
    else byParent.set(key, [r]);
  }
  const children = (parent: string | undefined): Html | undefined => {
    const runs = byParent.get(parent) ?? [];
    if (runs.length === 0) return undefined;
    return html`<ul class="tree">${runs.map(
      (r) =>
        html`<li><span class="node" data-run="${r.runId}" data-run-label="${r.label}">${r.label} <span class="muted">${r.calls} call(s), ${r.tokens} tokens</span> <span class="tag ${r.status === 'failed' || r.status === 'paused' ? r.status : ''}">${r.status}${r.error ? html`: ${r.error}` : undefined}</span></span>${children(r.runId)}</li>`,
    )}</ul>`;
  };
  return html`<section id="runs"><h2>Runs</h2>${children(undefined)}</section>`;
}

function routesSection(view: TraceView): Html {
  const rows = view.routes.map(
    (r) =>
      html`<tr data-route-agent="${r.agent}"><td>${r.tree}</td><td><b>${r.agent}</b></td><td>${r.strategy}</td><td>${fixed(r.score)}</td><td>${fixed(r.similarity)}</td><td>${r.keywords.join(', ')}</td><td>${r.runnerUp}</td></tr>`,
  );
  return html`<section id="routes"><h2>Forest routing</h2><table><tr><th>tree</th><th>agent</th><th>rule</th><th>score</th><th>similarity</th><th>keywords</th><th>runner-up</th></tr>${rows}</table></section>`;
}

function handoffSection(view: TraceView): Html {
  const path = [view.handoffs[0]!.from, ...view.handoffs.map((h) => h.to)];
  const messages = view.handoffs.map(
    (h) => html`<tr data-handoff><td>${h.from}</td><td>${h.to}</td><td>${h.message}</td></tr>`,
  );
  return html`<section id="handoffs"><h2>Handoff path</h2><ol class="path">${path.map(
    (a) => html`<li data-handoff-agent="${a}">${a}</li>`,
  )}</ol><table><tr><th>from</th><th>to</th><th>message</th></tr>${messages}</table></section>`;
}

function ordersSection(view: TraceView): Html {
  const rows = view.orders.map(
    (o) =>
      html`<tr data-order="${o.id}"><td>${o.id}</td><td>${o.agent}</td><td>${o.task}</td><td class="${o.status === 'failed' ? 'failed' : ''}">${o.status}</td><td>${o.detail.slice(0, 400)}</td></tr>`,
  );
  return html`<section id="orders"><h2>Orders</h2><table><tr><th>id</th><th>agent</th><th>task</th><th>status</th><th>output or error</th></tr>${rows}</table></section>`;
}

function bidsSection(view: TraceView): Html {
  const rows = view.bids.map(
    (b) =>
      html`<tr data-bid="${b.agent}"><td>${b.round}</td><td>${b.speaker ? html`<b>${b.agent}</b>` : b.agent}</td><td>${fixed(b.score)}</td><td>${fixed(b.adjusted)}</td><td>${b.speaker ? 'speaks' : ''}</td></tr>`,
  );
  return html`<section id="bids"><h2>Bids</h2><table><tr><th>round</th><th>agent</th><th>bid</th><th>adjusted</th><th></th></tr>${rows}</table></section>`;
}

function thoughtsSection(view: TraceView): Html {
  const byParent = new Map<string | undefined, ThoughtView[]>();
  const ids = new Set(view.thoughts.map((t) => t.id));
  for (const t of view.thoughts) {
    const key = t.parent !== undefined && ids.has(t.parent) ? t.parent : undefined;
    const siblings = byParent.get(key);
    if (siblings) siblings.push(t);
    else byParent.set(key, [t]);
  }
  const draw = (parent: string | undefined): Html | undefined => {
    const nodes = byParent.get(parent) ?? [];
    if (nodes.length === 0) return undefined;
    return html`<ul class="tree">${nodes.map(
      (t) =>
        html`<li><span class="node" data-tot-node="${t.id}" data-status="${t.status}"${t.synthesized ? html` data-synthesized="true"` : undefined} title="${t.reason ? `rejected: ${t.reason}` : t.status}">${t.synthesized ? '★ ' : ''}${t.content}${t.score === undefined ? undefined : html`<span class="score" data-score>${fixed(t.score, 2)}</span>`}</span>${draw(t.id)}</li>`,
    )}</ul>`;
  };
  const pruned = view.thoughts.filter((t) => t.status === 'pruned').length;
  return html`<section id="thoughts"><h2>Tree of thoughts</h2><p class="muted">${view.thoughts.length} node(s), ${pruned} pruned</p>${draw(undefined)}</section>`;
}

function callsSection(view: TraceView, total: unknown): Html {
  const rows = view.calls
    .slice(0, maxTableRows)
    .map(
      (c, i) =>
        html`<tr data-call${c.replayed ? html` data-replayed="true"` : undefined}><td>${i + 1}</td><td>${c.agent}</td><td>${c.purpose}</td><td>${callModel(c)}</td><td>${c.finishReason}</td><td>${c.tokens}</td><td data-call-time title="${c.startedAt ?? ''} – ${c.endedAt ?? ''}">${callTime(c.startedAt, c.endedAt)}</td><td>${c.replayed ? html`<span class="tag replayed">replayed</span>` : 'live'}</td></tr>${
          c.reasoning === undefined
            ? undefined
            : html`<tr data-reasoning><td></td><td colspan="7"><details><summary>reasoning</summary><div class="answer">${c.reasoning}</div></details></td></tr>`
        }`,
    );
  return html`<section id="calls"><h2>Model calls</h2><p class="muted">${view.calls.length} answered call(s), <span data-calls-tokens>${total ?? 0}</span> tokens in all; a replayed call was answered from the run's journal, without the model</p><table><tr><th>#</th><th>agent</th><th>purpose</th><th>model</th><th>finish</th><th>tokens</th><th>time</th><th>answered</th></tr>${rows}</table>${more(view.calls.length, 'calls')}</section>`;
}

// The time a call took, from its request to its answer as traced (empty when either is missing).
function callTime(startedAt: string | undefined, endedAt: string | undefined): string {
  const took = (Date.parse(String(endedAt)) - Date.parse(String(startedAt))) / 1000;
  return Number.isFinite(took) ? `${took.toFixed(2)} s` : '';
}

// The model asked for, the one that answered when the provider named another, and the response id.
function callModel(c: TraceView['calls'][number]): Html {
  const answered =
    c.responseModel !== undefined && c.responseModel !== c.model && !c.model.endsWith(`:${c.responseModel}`)
      ? html` <span class="muted" data-response-model>→ ${c.responseModel}</span>`
      : undefined;
  const id =
    c.responseId === undefined
      ? undefined
      : html`<br><span class="muted" data-response-id>${c.responseId}</span>`;
  return html`${c.model}${answered}${id}`;
}

function eventsSection(events: readonly SwarmEvent[], view: TraceView): Html {
  const counts = view.counts.map(([type, n]) => html`<span class="tag">${type} ${n}</span> `);
  const rows = events.slice(0, maxTableRows).map((e) => {
    const { type, runId: _r, at, topology: _t, agent, parentRunId: _p, path: _path, ...rest } = e;
    return html`<tr><td>${String(at).slice(11, 23)}</td><td>${type}</td><td>${agent}</td><td>${toJson(rest, 0).slice(0, 300)}</td></tr>`;
  });
  return html`<section id="events"><details><summary>All ${events.length} events</summary><p>${counts}</p><table><tr><th>time</th><th>type</th><th>agent</th><th>data</th></tr>${rows}</table>${more(events.length, 'events')}</details></section>`;
}

// The page's own CSS: markup of this file, never from a trace.
const pageStyle = html`<style>
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; background: #f6f7fb; }
body { max-width: 1080px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 0 0 10px; }
section { background: #fff; border: 1px solid #e1e4ec; border-radius: 10px; padding: 16px 18px; margin: 14px 0; }
.muted { color: #6b7386; } .answer { white-space: pre-wrap; background: #f0f6ff; border-radius: 8px; padding: 10px 12px; }
.stats { display: flex; gap: 18px; flex-wrap: wrap; margin-top: 10px; } .stats b { font-size: 18px; display: block; }
table { border-collapse: collapse; width: 100%; font-size: 13px; } th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #eef0f5; vertical-align: top; }
th { color: #6b7386; font-weight: 600; }
ul.tree, ul.tree ul { list-style: none; padding-left: 18px; margin: 2px 0; border-left: 1px dashed #cfd5e2; }
ul.tree { border-left: none; padding-left: 0; }
.node { display: inline-block; padding: 3px 8px; margin: 2px 0; border-radius: 6px; background: #eef2fb; font-size: 13px; }
.node[data-status="pruned"] { background: #fbeeee; color: #8a3b3b; text-decoration: line-through; }
.node[data-status="solution"], .node[data-status="final"] { background: #e8f7ee; color: #1d6b3a; font-weight: 600; }
.node[data-status="terminatedEarly"] { background: #fff4e0; }
.node[data-status="rejected"] { background: #f3f3f3; color: #8a8f9c; font-style: italic; }
.node[data-synthesized] { outline: 2px solid #3b5bdb; }
.score { font-variant-numeric: tabular-nums; color: #3b5bdb; margin-left: 6px; }
ol.path { display: flex; gap: 6px; flex-wrap: wrap; list-style: none; padding: 0; }
ol.path li { background: #eef2fb; border-radius: 14px; padding: 4px 10px; } ol.path li + li::before { content: "→ "; color: #6b7386; }
.failed { color: #b42318; } .tag { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #eef0f5; }
.tag.paused { background: #fff4e0; color: #8a5a00; } .tag.replayed { background: #eef2fb; color: #3b5bdb; }
tr[data-replayed] td { color: #6b7386; } pre { white-space: pre-wrap; background: #f6f7fb; border-radius: 6px; padding: 8px 10px; }
details summary { cursor: pointer; font-weight: 600; }
</style>`;
