/**
 * The studio's page: one static HTML document whose script reads the JSON API with the token of
 * its own address. Every value is written with `textContent`, never as markup: provider and model
 * text are input like any other.
 */
export function studioPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>swarm studio</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;display:flex;height:100vh}
#list{width:40%;overflow:auto;border-right:1px solid #ccc;padding:8px}
#run{flex:1;overflow:auto;padding:8px}
.row{cursor:pointer;padding:4px;border-bottom:1px solid #eee}.row:hover{background:#f4f4f4}
.state{font-weight:bold;margin-right:6px}.group{margin-top:8px;font-weight:bold;color:#555}
pre{white-space:pre-wrap;background:#f7f7f7;padding:4px;margin:2px 0}
td,th{vertical-align:top;padding:4px;text-align:left}
.call{border:1px solid #ddd;margin:4px 0;padding:4px}
.muted{color:#6b7386}.reason{color:#6b7386;margin-left:6px}.usage,.time{color:#444;font-size:12px}
details.request summary{cursor:pointer;color:#3b5bdb}.msg{margin:2px 0 2px 8px}.role{font-weight:bold;margin-right:4px}
</style></head><body>
<div id="list"><input id="search" placeholder="search runs" style="width:95%"><div id="runs"></div></div>
<div id="run"><p>Pick a run.</p></div>
<script>
const token = new URLSearchParams(location.search).get('token');
const api = (p, init) => fetch(p + (p.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token), init).then(async (r) => { const b = await r.json(); if (!r.ok) throw new Error(b.error); return b; });
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
let runs = [];
async function loadList() {
  runs = await api('/api/runs');
  drawList();
}
function drawList() {
  const q = document.getElementById('search').value.toLowerCase();
  const box = document.getElementById('runs');
  box.replaceChildren();
  const groups = new Map();
  for (const r of runs) {
    if (q && !(r.id + ' ' + r.task + ' ' + r.topology + ' ' + r.session).toLowerCase().includes(q)) continue;
    if (!groups.has(r.session)) groups.set(r.session, []);
    groups.get(r.session).push(r);
  }
  for (const [session, list] of groups) {
    box.append(el('div', session, 'group'));
    for (const r of list) {
      const row = el('div', undefined, 'row');
      row.dataset.id = r.id;
      const state = el('span', r.state, 'state');
      state.title = r.stateReason;
      row.append(state, el('span', r.id + ' · ' + r.topology + ' · ' + r.calls + ' calls · ' + r.tokens + ' tokens · ' + r.time), el('div', r.task));
      row.onclick = () => openRun(r.id);
      box.append(row);
    }
  }
}
let source;
function openRun(id) {
  if (source) source.close();
  const box = document.getElementById('run');
  box.replaceChildren();
  const head = el('h2', id);
  const state = el('div', '', 'state');
  state.id = 'run-state';
  const reason = el('div', '', 'reason');
  reason.id = 'run-reason';
  const pending = el('div');
  pending.id = 'pending';
  const calls = el('div');
  calls.id = 'calls';
  const compare = el('div');
  compare.id = 'compare';
  // The run as its topology draws it, from the events of its last attempt in this studio.
  const views = el('div');
  views.id = 'views';
  let drawn = '';
  box.append(head, state, reason, pending, compare, views, calls);
  const parent = /^(.*)-fork[0-9]+$/.exec(id);
  if (parent) drawCompare(compare, parent[1], id);
  let index = 0;
  source = new EventSource('/api/runs/' + encodeURIComponent(id) + '/events?token=' + encodeURIComponent(token));
  // The journal file was replaced or cut: its entries come again from the first.
  source.addEventListener('reset', () => {
    calls.replaceChildren();
    index = 0;
  });
  source.addEventListener('entry', (ev) => {
    const e = JSON.parse(ev.data);
    const c = el('div', undefined, 'call');
    if (e.type === 'model') {
      const at = index++;
      c.dataset.call = String(at);
      c.style.marginLeft = (Math.max(0, e.path.length - 1) * 16) + 'px';
      c.append(el('b', 'call ' + at + ' · ' + (e.agent ?? '') + ' · ' + e.model + (e.purpose ? ' · ' + e.purpose : '')), el('div', e.path.join(' / ')));
      c.append(callTime(e), callRequest(e));
      c.append(el('pre', e.response.text, 'answer'));
      for (const t of e.response.toolCalls) c.append(el('pre', t.name + ' ' + JSON.stringify(t.arguments), 'tool-call'));
      const u = e.response.usage;
      c.append(el('div', u.inputTokens + ' in · ' + u.outputTokens + ' out · ' + u.cachedTokens + ' cached · ' + u.reasoningTokens + ' reasoning · ' + u.totalTokens + ' tokens' + (u.estimated ? ' (estimated)' : '') + ' · finish: ' + e.response.finishReason, 'usage'));
      const fork = el('button', 'fork here', 'fork');
      fork.onclick = async () => {
        const answer = prompt('Answer at this call (leave empty to keep it)');
        const body = { at };
        if (answer) body.answer = answer;
        const r = await api('/api/runs/' + encodeURIComponent(id) + '/fork', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        await loadList();
        openRun(r.id);
      };
      c.append(fork);
    } else if (e.type === 'tool') {
      c.dataset.tool = e.tool;
      c.style.marginLeft = (Math.max(0, e.path.length - 1) * 16) + 'px';
      c.append(el('b', 'tool ' + e.tool + ' · ' + e.agent + (e.isError ? ' · error' : '') + (e.approved === true ? ' · approved' : e.approved === false ? ' · rejected' : '')), el('pre', e.result));
    } else {
      c.append(el('b', 'approval asked: ' + e.approval.tool), el('pre', JSON.stringify(e.approval.arguments)));
    }
    calls.append(c);
  });
  source.addEventListener('state', (ev) => {
    const s = JSON.parse(ev.data);
    state.textContent = s.state + ' · ' + s.calls + ' calls · ' + s.tokens + ' tokens';
    state.title = s.stateReason;
    state.dataset.state = s.state;
    reason.textContent = s.stateReason;
    const at = s.state + ':' + s.calls;
    if (s.views > 0 && at !== drawn) {
      drawn = at;
      const frame = el('iframe');
      frame.setAttribute('sandbox', '');
      frame.title = 'the run as its topology draws it';
      frame.style.cssText = 'width:100%;height:480px;border:1px solid #ddd';
      frame.src = '/api/runs/' + encodeURIComponent(id) + '/report?token=' + encodeURIComponent(token) + '&at=' + encodeURIComponent(at);
      views.replaceChildren(frame);
    }
    pending.replaceChildren();
    for (const p of s.pending) {
      const d = el('div', undefined, 'call');
      d.dataset.approval = p.id;
      const msg = el('input');
      msg.placeholder = 'message (optional)';
      const decide = (approved) => async () => {
        const decision = { approved };
        if (msg.value) decision.message = msg.value;
        await api('/api/runs/' + encodeURIComponent(id) + '/approvals', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ [p.id]: decision }) });
        openRun(id);
      };
      const yes = el('button', 'Approve', 'approve');
      yes.onclick = decide(true);
      const no = el('button', 'Reject', 'reject');
      no.onclick = decide(false);
      d.append(el('b', 'waiting: ' + p.tool + ' (' + p.agent + ')'), el('pre', JSON.stringify(p.arguments)), msg, yes, no);
      pending.append(d);
    }
  });
}
// When a call started and ended, as its journal entry records them (format 1 records neither).
function callTime(e) {
  if (!e.startedAt && !e.endedAt) return el('div', 'time: not recorded in the journal', 'time muted');
  const s = Date.parse(e.startedAt), n = Date.parse(e.endedAt);
  const took = Number.isFinite(s) && Number.isFinite(n) ? ' (' + ((n - s) / 1000).toFixed(2) + ' s)' : '';
  return el('div', 'started ' + (e.startedAt ?? '?') + ' · ended ' + (e.endedAt ?? '?') + took, 'time');
}
// The call's request, folded: its messages when the journal entry records them, else its key.
function callRequest(e) {
  const d = el('details', undefined, 'request');
  const messages = e.request && Array.isArray(e.request.messages) ? e.request.messages : undefined;
  if (!messages) {
    d.append(el('summary', 'request'), el('div', 'not recorded in the journal (it keeps the key ' + e.key + ' of the call and its answer)', 'muted'));
    return d;
  }
  d.append(el('summary', 'request · ' + messages.length + ' message(s)'));
  const system = typeof e.request.system === 'string' ? [{ role: 'system', content: e.request.system }] : [];
  for (const m of [...system, ...messages]) {
    const row = el('div', undefined, 'msg');
    row.dataset.role = String(m && m.role);
    const content = m && typeof m.content === 'string' ? m.content : JSON.stringify(m && m.content);
    row.append(el('span', m && m.role, 'role'), el('pre', content));
    if (m && Array.isArray(m.toolCalls)) for (const t of m.toolCalls) row.append(el('pre', (t && t.name) + ' ' + JSON.stringify(t && t.arguments)));
    d.append(row);
  }
  return d;
}
// A fork beside the run it was forked from: calls, tokens and answer of each, side by side.
async function drawCompare(box, a, b) {
  const runs = await Promise.all([a, b].map((r) => api('/api/runs/' + encodeURIComponent(r))));
  const table = el('table');
  table.border = '1';
  const row = (label, f) => { const tr = el('tr'); tr.append(el('th', label), ...runs.map((r) => el('td', f(r)))); table.append(tr); };
  const answer = (r) => { const m = r.entries.filter((e) => e.type === 'model').at(-1); return m ? m.response.text : ''; };
  row('run', (r) => r.id);
  row('state', (r) => r.state);
  row('calls', (r) => r.calls);
  row('tokens', (r) => r.tokens);
  row('answer', answer);
  box.replaceChildren(el('b', 'compare'), table);
}
document.getElementById('search').oninput = drawList;
loadList();
</script></body></html>
`;
}
