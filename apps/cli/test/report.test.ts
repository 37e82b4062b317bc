import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SwarmEvent } from '@swarm/core';
import { type MockHandler, mockProviderServer } from '@swarm/core/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport } from '../src/report/html-report.js';
import { cooperativeModel, specsDir, swarm } from './swarm-process.js';

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
