import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SwarmEvent, TopologyResult, Usage } from '@swarm/core';
import { type MockHandler, mockProviderServer } from '@swarm/core/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport } from '../src/report/html-report.js';
import { cooperativeModel, refundDeskModel, specsDir, swarm, testSpecsDir } from './swarm-process.js';

// Debian's chromium, which .ci/run installs; never a downloaded browser.
const executablePath =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
const dir = mkdtempSync(join(tmpdir(), 'swarm-report-'));
let browser: Browser;

beforeAll(async () => {
  if (!executablePath)
    throw new Error(
      "No chromium found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
    );
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(() => browser?.close());

/** Runs a spec against a mock provider driven by `handler`; returns its trace and the opened report. */
async function runAndOpen(
  spec: string,
  handler: MockHandler,
): Promise<{ events: SwarmEvent[]; page: Page; output: string }> {
  const server = await mockProviderServer({ handler });
  try {
    const trace = join(dir, `${spec}.json`);
    const report = join(dir, `${spec}.html`);
    const ran = await swarm(['run', join(specsDir, spec), '--json', '--trace', trace, '--report', report], {
      SWARM_MODEL: 'openai:mock-model',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: server.openaiBaseURL,
    });
    expect(ran.stderr).toBe('');
    const page = await browser.newPage();
    await page.goto(pathToFileURL(report).href);
    const events = JSON.parse(readFileSync(trace, 'utf8')) as SwarmEvent[];
    return { events, page, output: (JSON.parse(ran.stdout) as { output: string }).output };
  } finally {
    await server.close();
  }
}

describe('the HTML report, in a real browser', () => {
  it('draws the tree of thoughts the trace describes, pruned branches marked', async () => {
    let call = 0;
    const { events, page, output } = await runAndOpen(
      'tree-of-thoughts.yaml',
      cooperativeModel((request) => {
        const choice = request.body.tool_choice as { function?: { name?: string } } | undefined;
        call += 1;
        // Three proposals per node; ratings alternate high and low, so some branches are pruned.
        if (choice?.function?.name === 'propose_thoughts') {
          const thoughts = [1, 2, 3].map((i) => ({ thought: `step ${call}.${i}`, isFinal: false }));
          return { toolCalls: [{ name: 'propose_thoughts', arguments: { thoughts } }] };
        }
        if (choice?.function?.name === 'rate_thought') {
          return {
            toolCalls: [{ name: 'rate_thought', arguments: { critique: 'ok', score: call % 2 ? 0.9 : 0.1 } }],
          };
        }
        return undefined;
      }),
    );
    expect(await page.title()).toContain('Game of 24');
    const expanded = events.filter((e) => e.type === 'tot.expand');
    expect(expanded.length).toBeGreaterThan(1);
    const ids = new Set<string>();
    for (const e of expanded) {
      ids.add(String(e.nodeId));
      for (const c of e.candidates as { id: unknown }[]) ids.add(String(c.id));
    }
    const drawn = await page
      .locator('[data-tot-node]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tot-node')));
    expect(new Set(drawn)).toEqual(ids);
    expect(await page.locator('[data-tot-node]').first().isVisible()).toBe(true);
    const pruned = events.filter((e) => e.type === 'tot.prune').map((e) => String(e.nodeId));
    const drawnPruned = await page
      .locator('[data-tot-node][data-status="pruned"]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tot-node')));
    expect(pruned.length).toBeGreaterThan(0);
    expect(drawnPruned.sort()).toEqual(pruned.sort());
    expect(await page.locator('[data-output]').textContent()).toBe(output);
    await page.close();
  });

  it('draws the handoff path of the trace', async () => {
    let first = true;
    const { events, page } = await runAndOpen(
      'handoff.yaml',
      cooperativeModel((request) => {
        const tools = (request.body.tools ?? []) as { function: { name: string } }[];
        if (first && tools.some((t) => t.function.name === 'handoff')) {
          first = false;
          return {
            toolCalls: [
              { name: 'handoff', arguments: { target: 'billing', message: 'Double charge on invoice 42.' } },
            ],
          };
        }
        return undefined;
      }),
    );
    const handoffs = events.filter((e) => e.type === 'swarm.handoff');
    expect(handoffs.map((e) => [e.from, e.to])).toEqual([['triage', 'billing']]);
    const path = await page.locator('[data-handoff-agent]').allInnerTexts();
    expect(path).toEqual(['triage', 'billing']);
    await page.close();
  });

  it("shows the forest's routing decision and the run's totals as the trace has them", async () => {
    const { events, page } = await runAndOpen('forest.yaml', cooperativeModel());
    const route = events.find((e) => e.type === 'forest.route');
    expect(await page.locator('[data-route-agent]').getAttribute('data-route-agent')).toBe(route?.agent);
    const end = events.find((e) => e.type === 'run.end');
    expect(await page.locator('[data-llm-calls]').textContent()).toBe(String(end?.llmCalls));
    const box = await page.locator('#summary').boundingBox();
    expect(box?.height).toBeGreaterThan(100);
    await page.close();
  });

  it("lists the director's orders the trace describes, with their outcome", async () => {
    const { events, page } = await runAndOpen('hierarchical-swarm.yaml', cooperativeModel());
    const plans = events.filter((e) => e.type === 'hierarchy.plan');
    const planned = plans.flatMap((e) => (e.orders as { id: string }[]).map((o) => o.id));
    expect(planned.length).toBeGreaterThan(0);
    const rows = await page
      .locator('[data-order]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-order')));
    expect(rows).toEqual(planned);
    const ended = events.filter((e) => e.type === 'hierarchy.order.end').map((e) => String(e.status));
    const statuses = await page.locator('[data-order] td:nth-child(4)').allTextContents();
    expect(statuses).toEqual(ended);
    await page.close();
  });

  it('shows every bid of a group chat and who took the floor', async () => {
    let bids = 0;
    const { events, page } = await runAndOpen(
      'group-chat.yaml',
      cooperativeModel((request) => {
        const choice = request.body.tool_choice as { function?: { name?: string } } | undefined;
        if (choice?.function?.name !== 'respond') return undefined;
        bids += 1;
        // Round one: the second bidder bids high and speaks; every later bid is silence.
        const score = bids === 2 ? 0.9 : 0.1;
        return { toolCalls: [{ name: 'respond', arguments: { score, message: `bid ${bids}` } }] };
      }),
    );
    const traced = events
      .filter((e) => e.type === 'groupchat.bid')
      .flatMap((e) => e.bids as { agent: string }[]);
    const drawn = await page
      .locator('[data-bid]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-bid')));
    expect(drawn).toEqual(traced.map((b) => b.agent));
    const speakers = events.filter((e) => e.type === 'groupchat.message').map((e) => e.agent);
    expect(speakers).toHaveLength(1);
    expect(await page.locator('[data-bid] b').allTextContents()).toEqual(speakers);
    await page.close();
  });

  it('shows the calls a paused run waits for and the command that resumes it, then marks the calls its resume replayed', async () => {
    const server = await mockProviderServer({ handler: refundDeskModel });
    try {
      const env = {
        SWARM_MODEL: 'openai:mock-model',
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: server.openaiBaseURL,
      };
      const journal = join(dir, 'journal');
      const files = (name: string) => [join(dir, `${name}.json`), join(dir, `${name}.html`)] as const;
      const [pausedTrace, pausedReport] = files('paused');
      const ran = await swarm(
        [
          'run',
          join(testSpecsDir, 'refund-desk.yaml'),
          '--journal',
          journal,
          '--json',
          '--trace',
          pausedTrace,
          '--report',
          pausedReport,
        ],
        env,
      );
      expect(ran.code).toBe(0);
      const paused = JSON.parse(ran.stdout) as { runId: string; resume: string };
      const pauseEvent = (JSON.parse(readFileSync(pausedTrace, 'utf8')) as SwarmEvent[]).at(-1)!;
      expect(pauseEvent.type).toBe('run.paused');
      const pending = pauseEvent.pending as { id: string; agent: string; tool: string }[];
      expect(pending).toHaveLength(1);

      const page = await browser.newPage();
      await page.goto(pathToFileURL(pausedReport).href);
      expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('paused');
      expect(await page.locator('[data-status]').textContent()).toBe(
        'paused waits for approval of 1 tool call(s)',
      );
      const rows = await page
        .locator('[data-pending]')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-pending')));
      expect(rows).toEqual(pending.map((p) => p.id));
      expect(await page.locator('[data-pending] td').allTextContents()).toEqual([
        pending[0]!.id,
        'clerk',
        'calculator',
        '{"expression":"40 * 2"}',
        'SequentialWorkflow',
      ]);
      expect(await page.locator('[data-resume]').textContent()).toBe(paused.resume);
      expect(await page.locator('[data-pending]').isVisible()).toBe(true);
      await page.close();

      const [resumedTrace, resumedReport] = files('resumed');
      const resumed = await swarm(
        [
          'resume',
          journal,
          paused.runId,
          '--approve',
          pending[0]!.id,
          '--trace',
          resumedTrace,
          '--report',
          resumedReport,
        ],
        env,
      );
      expect(resumed.code).toBe(0);
      const answered = (JSON.parse(readFileSync(resumedTrace, 'utf8')) as SwarmEvent[]).filter(
        (e) => e.type === 'model.response',
      );
      expect(answered.map((e) => e.replayed === true)).toEqual([true, false, false]);
      const again = await browser.newPage();
      await again.goto(pathToFileURL(resumedReport).href);
      const marked = await again
        .locator('[data-call]')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-replayed') === 'true'));
      expect(marked).toEqual(answered.map((e) => e.replayed === true));
      expect(await again.locator('[data-call] td:last-child').allTextContents()).toEqual([
        'replayed',
        'live',
        'live',
      ]);
      expect(await again.locator('[data-replayed-calls]').textContent()).toBe('1');
      expect(await again.locator('[data-live-calls]').textContent()).toBe('2');
      expect(await again.locator('[data-status]').getAttribute('data-status')).toBe('done');
      expect(await again.locator('[data-pending]').count()).toBe(0);
      await again.close();
    } finally {
      await server.close();
    }
  });

  it('shows a task and an answer holding <script> as text: nothing in them runs', async () => {
    const attack = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';
    const path = join(dir, 'escaped.html');
    writeFileSync(
      path,
      htmlReport({
        title: attack,
        task: attack,
        result: {
          output: attack,
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, cachedTokens: 0, reasoningTokens: 0 },
          llmCalls: 1,
        },
        events: [],
      }),
    );
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href);
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    expect(await page.evaluate('document.scripts.length + document.images.length')).toBe(0);
    expect(await page.locator('[data-task]').textContent()).toBe(attack);
    expect(await page.locator('[data-output]').textContent()).toBe(attack);
    expect(await page.title()).toBe(attack);
    await page.close();
  });

  it('draws a nested run inside the run that started it, as the trace links them', async () => {
    const { events, page } = await runAndOpen('auto-swarm-builder.yaml', cooperativeModel());
    const nested = events.filter((e) => e.type === 'run.start' && typeof e.parentRunId === 'string');
    expect(nested.length).toBeGreaterThan(0);
    for (const e of nested) {
      const parentOfNode = await page
        .locator(`[data-run="${e.runId}"]`)
        .evaluate((node) =>
          node.parentElement?.parentElement
            ?.closest('li')
            ?.querySelector(':scope > .node')
            ?.getAttribute('data-run'),
        );
      expect(parentOfNode).toBe(e.parentRunId);
    }
    await page.close();
  });
});

// A value that would run script wherever it was written as markup: in text, and out of a quoted
// attribute. Each names its field, so a run script would say which field let it in.
const hostile = (field: string) =>
  `${field}"'><script>window.__pwned='${field}'</script><img src=x onerror="window.__pwned='${field}';alert('${field}')">`;
// Elements a report never draws itself: one in the page came from the trace.
const injected = 'script, img, svg, iframe, object, embed';
const asJson = (field: string) => JSON.stringify(hostile(field)).slice(1, -1);

/** Opens a report in chromium; what ran (a `window.__pwned` flag, dialogs) and every text and attribute of the page. */
async function openReport(name: string, report: string) {
  const path = join(dir, name);
  writeFileSync(path, report);
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(pathToFileURL(path).href);
  // A string, run in the page: this package is typed without the DOM.
  const seen = (await page.evaluate(`(() => {
    const texts = [];
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) texts.push(walker.currentNode.data);
    const attributes = [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.value));
    return { pwned: window.__pwned, markup: document.querySelectorAll(${JSON.stringify(injected)}).length, texts, attributes };
  })()`)) as { pwned: unknown; markup: number; texts: string[]; attributes: string[] };
  return { page, dialogs, ...seen };
}

describe('a report no field of the trace can script', () => {
  const ev = (type: string, runId: string, fields: Record<string, unknown> = {}): SwarmEvent =>
    ({ type, runId, at: '2026-01-01T00:00:00.000Z', topology: 'T', ...fields }) as SwarmEvent;
  // Usage as a provider may send it: strings where numbers belong.
  const usage = {
    inputTokens: hostile('usage.inputTokens'),
    outputTokens: hostile('usage.outputTokens'),
    totalTokens: hostile('usage.totalTokens'),
    cachedTokens: hostile('usage.cachedTokens'),
    reasoningTokens: hostile('usage.reasoningTokens'),
  };
  const root = hostile('runId');
  const events: SwarmEvent[] = [
    ev('run.start', root, { topology: hostile('topology'), task: hostile('event.task') }),
    ev('run.start', 'child', { parentRunId: root, path: [hostile('topology'), hostile('path')] }),
    ev('model.request', 'child', {
      agent: hostile('agent'),
      purpose: hostile('purpose'),
      model: hostile('model'),
    }),
    ev('model.response', 'child', {
      agent: hostile('agent'),
      purpose: hostile('purpose'),
      model: hostile('model'),
      finishReason: hostile('finishReason'),
      usage,
    }),
    ev('tool.call', 'child', { agent: 'a', tool: hostile('tool.name'), toolCallId: 'c1' }),
    ev('tool.call', 'child', { agent: 'a', tool: 't', arguments: { expression: hostile('tool.arguments') } }),
    ev('tool.result', 'child', { agent: 'a', toolCallId: hostile('tool.callId') }),
    ev('tool.result', 'child', { agent: 'a', result: hostile('tool.result'), isError: true }),
    ev('forest.route', 'child', {
      decision: {
        agent: hostile('route.agent'),
        tree: hostile('route.tree'),
        strategy: hostile('route.strategy'),
        keywordMatches: [hostile('route.keyword')],
        runnerUp: { agent: hostile('route.runnerUp') },
        score: hostile('route.score'),
        similarity: hostile('route.similarity'),
      },
    }),
    ev('swarm.handoff', 'child', {
      from: hostile('handoff.from'),
      to: hostile('handoff.to'),
      message: hostile('handoff.message'),
    }),
    ev('hierarchy.plan', 'child', {
      orders: [{ id: hostile('order.id'), agentName: hostile('order.agent'), task: hostile('order.task') }],
    }),
    ev('hierarchy.order.end', 'child', {
      id: hostile('order.id'),
      agent: hostile('order.agent'),
      status: hostile('order.status'),
      error: hostile('order.error'),
    }),
    ev('groupchat.bid', 'child', {
      round: hostile('bid.round'),
      bids: [{ agent: hostile('bid.agent'), score: hostile('bid.score'), adjusted: hostile('bid.adjusted') }],
    }),
    ev('groupchat.message', 'child', { agent: hostile('bid.agent') }),
    ev('tot.expand', 'child', {
      nodeId: hostile('tot.root'),
      depth: hostile('tot.depth'),
      candidates: [{ id: hostile('tot.id'), content: hostile('tot.content') }],
    }),
    ev('tot.evaluate', 'child', {
      nodeId: hostile('tot.id'),
      score: hostile('tot.score'),
      status: hostile('tot.status'),
    }),
    ev('tot.node', 'child', {
      change: 'rejected',
      parentId: hostile('tot.id'),
      thought: hostile('tot.rejected'),
      reason: hostile('tot.reason'),
    }),
    ev(hostile('event.type'), 'child', {
      agent: hostile('event.agent'),
      at: `2026-01-01T${hostile('event.at')}`,
    }),
    ev('model.response', 'child', { agent: 'a', model: 'm', replayed: true, usage }),
    ev('run.error', 'child', { error: hostile('run.error') }),
    ev('run.paused', root, {
      pending: [
        {
          id: hostile('pending.id'),
          agent: hostile('pending.agent'),
          tool: hostile('pending.tool'),
          arguments: { amount: hostile('pending.arguments') },
          path: [hostile('pending.path')],
        },
      ],
    }),
    ev('run.end', root, { llmCalls: hostile('run.llmCalls'), usage }),
  ];
  const result = {
    output: hostile('output'),
    usage,
    llmCalls: hostile('llmCalls'),
  } as unknown as TopologyResult;

  // Where each field shows: as its own text, in an attribute, or inside an event's JSON.
  const asText = [
    'title',
    'task',
    'output',
    'error',
    'llmCalls',
    'usage.inputTokens',
    'usage.outputTokens',
    'usage.totalTokens',
    'topology',
    'path',
    'run.error',
    'agent',
    'purpose',
    'model',
    'finishReason',
    'route.agent',
    'route.tree',
    'route.strategy',
    'route.keyword',
    'route.runnerUp',
    'handoff.from',
    'handoff.to',
    'handoff.message',
    'order.id',
    'order.agent',
    'order.task',
    'order.status',
    'order.error',
    'bid.agent',
    'tot.content',
    'tot.rejected',
    'event.type',
    'event.agent',
    'pending.id',
    'pending.agent',
    'pending.tool',
    'pending.path',
    'resume',
  ];
  const asAttribute = ['runId', 'tot.root', 'tot.id', 'tot.status', 'route.agent', 'bid.agent', 'pending.id'];
  const inJson = [
    'tool.name',
    'tool.arguments',
    'tool.callId',
    'tool.result',
    'event.task',
    'run.llmCalls',
    'pending.arguments',
  ];

  it.each([
    ['a failed run', { error: hostile('error') }],
    [
      'an interrupted run',
      { result: { ...result, interrupted: true, interruptionReason: hostile('interruption') } },
    ],
  ])('draws %s with hostile text in every field as text, and runs none of it', async (name, variant) => {
    const report = htmlReport({
      title: hostile('title'),
      task: hostile('task'),
      resume: hostile('resume'),
      result,
      events,
      ...variant,
    });
    const { page, dialogs, pwned, markup, texts, attributes } = await openReport(
      `hostile-${name.replace(/\W+/g, '-')}.html`,
      report,
    );
    expect(pwned).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(markup).toBe(0);
    const shown = (needle: string, where: string[]) => where.some((t) => t.includes(needle));
    const fields =
      name === 'a failed run' ? asText : [...asText.filter((f) => f !== 'error'), 'interruption'];
    expect(fields.filter((field) => !shown(hostile(field), texts))).toEqual([]);
    expect(asAttribute.filter((field) => !shown(hostile(field), attributes))).toEqual([]);
    expect(inJson.filter((field) => !shown(asJson(field), texts))).toEqual([]);
    expect(shown(hostile('event.at').slice(0, 12), texts)).toBe(true);
    expect(await page.locator('[data-total-tokens]').textContent()).toBe(hostile('usage.totalTokens'));
    expect(await page.locator('[data-run]').first().getAttribute('data-run')).toBe(root);
    await page.close();
  });

  it('opens the report of a real run whose provider sends markup as its token counts, and nothing runs', async () => {
    const { page } = await runAndOpen(
      'sequential-workflow.yaml',
      cooperativeModel(() => ({
        text: 'the answer',
        usage: {
          inputTokens: hostile('wire.prompt_tokens'),
          outputTokens: hostile('wire.completion_tokens'),
          totalTokens: hostile('wire.total_tokens'),
        } as unknown as Usage,
      })),
    );
    const seen = await page.evaluate(
      `({ pwned: window.__pwned, markup: document.querySelectorAll(${JSON.stringify(injected)}).length })`,
    );
    expect(seen).toEqual({ pwned: undefined, markup: 0 });
    expect(await page.locator('[data-output]').textContent()).toBe('the answer');
    await page.close();
  });
});
