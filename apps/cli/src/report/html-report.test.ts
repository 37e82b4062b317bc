import type { SwarmEvent } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { htmlReport, maxTableRows } from './html-report.js';

const at = '2026-01-01T00:00:00.000Z';
const ev = (type: string, runId: string, fields: Record<string, unknown> = {}): SwarmEvent =>
  ({ type, runId, at, topology: 'T', ...fields }) as SwarmEvent;
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, cachedTokens: 0, reasoningTokens: 0 };
const attack = '<script>window.pwned = 1</script><img src=x onerror="pwned=2">';

describe('htmlReport', () => {
  it('escapes text from the task, the answer, agents, routes and events: no markup gets through', () => {
    const html = htmlReport({
      title: attack,
      task: attack,
      result: { output: attack, usage, llmCalls: 1 },
      events: [
        ev('run.start', 'r1', { path: [attack] }),
        ev('swarm.handoff', 'r1', { from: attack, to: 'b', message: attack }),
        ev('forest.route', 'r1', { decision: { agent: attack, tree: attack, keywordMatches: [attack] } }),
        ev('model.response', 'r1', { agent: attack, purpose: attack, usage }),
        ev('run.error', 'r1', { error: attack }),
      ],
    });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;');
    expect(html).toContain('onerror=&quot;pwned=2&quot;');
  });

  it('gives each model call the time from its request to its answer', () => {
    const html = htmlReport({
      title: 't',
      task: 'x',
      events: [
        ev('model.request', 'r1', { callId: 'r1/1', at: '2026-01-01T00:00:01.000Z' }),
        ev('model.request', 'r1', { callId: 'r1/2', at: '2026-01-01T00:00:01.200Z' }),
        ev('model.response', 'r1', { callId: 'r1/2', usage, at: '2026-01-01T00:00:01.450Z' }),
        ev('model.response', 'r1', { callId: 'r1/1', usage, at: '2026-01-01T00:00:02.500Z' }),
      ],
    });
    expect(html.match(/<td data-call-time[^>]*>[^<]*<\/td>/g)).toEqual([
      '<td data-call-time title="2026-01-01T00:00:01.200Z – 2026-01-01T00:00:01.450Z">0.25 s</td>',
      '<td data-call-time title="2026-01-01T00:00:01.000Z – 2026-01-01T00:00:02.500Z">1.50 s</td>',
    ]);
  });

  it("shows a call's response id, the model that answered and its reasoning collapsed, all escaped", () => {
    const html = htmlReport({
      title: 't',
      task: 'x',
      events: [
        ev('run.start', 'r1', { path: ['r1'] }),
        ev('model.response', 'r1', {
          agent: 'a',
          model: 'openai:gpt-5.4',
          usage,
          finishReason: 'stop',
          responseId: `chatcmpl-${attack}`,
          responseModel: 'gpt-5.4-2026-03-05',
          reasoning: { text: `Thinking ${attack}` },
        }),
        ev('model.response', 'r1', { agent: 'b', model: 'openai:gpt-5.4', usage, finishReason: 'stop' }),
        ev('run.end', 'r1'),
      ],
    });
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('<span class="muted" data-response-model>→ gpt-5.4-2026-03-05</span>');
    expect(html).toContain('data-response-id>chatcmpl-&lt;script&gt;');
    expect(html).toMatch(/<details><summary>reasoning<\/summary><div class="answer">Thinking &lt;script&gt;/);
    expect(html.match(/data-reasoning/g)).toHaveLength(1);
  });

  it('lists every guardrail check, marking the one that tripped and where it ran', () => {
    const html = htmlReport({
      title: 't',
      task: 'x',
      events: [
        ev('run.start', 'outer', { path: ['outer'] }),
        ev('guardrail.pass', 'outer', { guardrail: 'topic', kind: 'input' }),
        ev('run.start', 'inner', { parentRunId: 'outer', path: ['outer', 'inner'] }),
        ev('guardrail.trip', 'inner', {
          guardrail: 'no-pii',
          kind: 'output',
          info: { found: 'SSN' },
          path: ['outer', 'inner'],
        }),
        ev('run.error', 'inner', { error: 'tripped', code: 'GUARDRAIL_TRIPWIRE' }),
        ev('run.error', 'outer', { error: 'tripped', code: 'GUARDRAIL_TRIPWIRE' }),
      ],
    });
    expect(html).toContain('<section id="guardrails">');
    expect(html).toMatch(
      /data-guardrail="topic" data-tripped="false"><td><b>topic<\/b><\/td><td>input<\/td><td>passed/,
    );
    expect(html).toMatch(
      /data-guardrail="no-pii" data-tripped="true">.*tripped.*\{&quot;found&quot;:&quot;SSN&quot;\}.*outer &gt; inner/,
    );
  });

  it('draws nested runs under their parent, however deep', () => {
    const html = htmlReport({
      title: 't',
      task: 'x',
      events: [
        ev('run.start', 'outer', { path: ['outer'] }),
        ev('run.start', 'middle', { parentRunId: 'outer', path: ['outer', 'middle'] }),
        ev('run.start', 'inner', { parentRunId: 'middle', path: ['outer', 'middle', 'inner'] }),
        ev('run.start', 'sibling', { parentRunId: 'outer', path: ['outer', 'sibling'] }),
        ev('run.end', 'inner'),
        ev('run.end', 'middle'),
        ev('run.end', 'sibling'),
        ev('run.end', 'outer'),
      ],
    });
    const runs = html.slice(
      html.indexOf('<section id="runs">'),
      html.indexOf('</section>', html.indexOf('id="runs"')),
    );
    // Each run's <li> holds its children's <ul>: outer ( middle ( inner ) sibling ).
    const shape = runs
      .replace(/<span class="node" data-run="(\w+)"[\s\S]*?<\/span><\/span>/g, '$1')
      .replace(/<ul class="tree">/g, '(')
      .replace(/<\/ul>/g, ')')
      .replace(/<\/?li>/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/.*?<h2>Runs<\/h2>/, '');
    expect(shape.trim()).toBe('( outer( middle( inner ) sibling ) )');
  });

  it('draws a run whose parent is not in the trace as a top-level run', () => {
    const html = htmlReport({
      title: 't',
      task: 'x',
      events: [
        ev('run.start', 'child', { parentRunId: 'elsewhere', path: ['child'] }),
        ev('run.end', 'child'),
      ],
    });
    expect(html).toContain('data-run="child"');
  });

  it('draws at most maxTableRows of a big trace, says how many more, and stays small', () => {
    const events: SwarmEvent[] = [ev('run.start', 'r')];
    for (let i = 0; i < 3 * maxTableRows; i++) {
      events.push(ev('model.response', 'r', { agent: 'a', purpose: 'p', usage }));
    }
    events.push(ev('run.end', 'r'));
    const html = htmlReport({
      title: 't',
      task: 'x',
      result: { output: 'o', usage, llmCalls: 6000 },
      events,
    });
    expect(html.match(/<tr data-call>/g)).toHaveLength(maxTableRows);
    expect(html).toContain(`Showing the first 2,000 of ${(3 * maxTableRows).toLocaleString('en-US')} calls`);
    expect(html).toContain(
      `Showing the first 2,000 of ${(3 * maxTableRows + 2).toLocaleString('en-US')} events`,
    );
    expect(html).toContain(`All ${events.length} events`);
    expect(html.match(/<tr><td>00:00:00\.000<\/td>/g)).toHaveLength(maxTableRows);
    expect(html.length).toBeLessThan(2_000_000);
  });

  it('draws an event that holds a cycle instead of throwing', () => {
    const decision: Record<string, unknown> = { agent: 'a' };
    decision.self = decision;
    const html = htmlReport({ title: 't', task: 'x', events: [ev('run.start', 'r', { decision })] });
    expect(html).toContain('[Circular]');
  });

  it('draws the coordinated tree: statuses, a rejected node apart from the node it collided with, the synthesized nodes', () => {
    const node = (nodeId: string, parentId: string | undefined, status: string, score?: number) =>
      ev('tot.node', 'r1', {
        change: 'status',
        nodeId,
        parentId,
        depth: parentId ? 1 : 0,
        status,
        score,
        thought: `t ${nodeId}`,
      });
    const html = htmlReport({
      title: 't',
      task: 'q',
      events: [
        ev('run.start', 'r1'),
        node('root', undefined, 'evaluated'),
        node('n1', 'root', 'active', 8),
        node('n2', 'root', 'terminatedEarly', 3),
        ev('tot.node', 'r1', {
          change: 'rejected',
          nodeId: 'n1',
          parentId: 'root',
          depth: 1,
          thought: 'again',
          reason: 'duplicate id n1',
        }),
        ev('tot.synthesize', 'r1', { nodes: [{ id: 'n1', score: 8 }] }),
        ev('run.end', 'r1'),
      ],
    });
    const nodes = [
      ...html.matchAll(/data-tot-node="([^"]+)" data-status="([^"]+)"( data-synthesized="true")?/g),
    ].map((m) => [m[1], m[2], m[3] !== undefined]);
    expect(nodes).toEqual([
      ['root', 'evaluated', false],
      ['n1', 'active', true],
      ['n2', 'terminatedEarly', false],
      ['rejected:0', 'rejected', false],
    ]);
    expect(html).toContain('title="rejected: duplicate id n1"');
  });
});
