import { existsSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resumeDemo, type Studio, startStudio, writeDemoJournal } from '../src/index.js';
import { pausedDesk, resumeDesk } from './fixture.js';

// Debian's chromium; never a downloaded browser.
const executablePath =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

let browser: Browser;
let studio: Studio | undefined;
let page: Page;

beforeAll(async () => {
  if (!executablePath) {
    throw new Error(
      "No chromium found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
    );
  }
  browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await page?.close();
  await studio?.close();
  studio = undefined;
});

async function demoStudio(): Promise<Studio> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-page-'));
  await writeDemoJournal(dir);
  studio = await startStudio({ journals: [dir], resume: resumeDemo });
  page = await browser.newPage();
  await page.goto(studio.url);
  return studio;
}

const api = async (s: Studio, path: string) =>
  (await fetch(`http://127.0.0.1:${s.port}${path}?token=${s.token}`)).json() as Promise<
    Record<string, unknown>
  >;

describe('swarm studio in chromium', () => {
  it('lists the runs grouped by session, newest first, and filters them with the search box', async () => {
    await demoStudio();
    const rows = page.locator('.row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(
      await page.locator('.row').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))),
    ).toEqual(['demo-refund-paused', 'demo-refund-done', 'demo-research']);
    expect(await page.locator('.group').allTextContents()).toEqual(['refund-desk', 'research-team']);
    expect(await page.locator('.row[data-id="demo-refund-paused"] .state').textContent()).toBe('paused');
    await page.fill('#search', 'bees');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-id')).toBe('demo-research');
  });

  it('shows every model call of a run, nested runs indented under their parent', async () => {
    await demoStudio();
    await page.click('.row[data-id="demo-research"]');
    await expect.poll(() => page.locator('.call[data-call]').count()).toBe(3);
    const researcher = page.locator('.call[data-call="1"]');
    expect(await researcher.textContent()).toContain('researcher');
    expect(await researcher.textContent()).toContain('Bees pollinate');
    expect(await researcher.evaluate((e) => e.getAttribute('style'))).toContain('margin-left: 16px');
  });

  it('approves a pending call from the page: the run resumes and its new calls arrive live', async () => {
    const s = await demoStudio();
    await page.click('.row[data-id="demo-refund-paused"]');
    await page.locator('[data-approval] .approve').waitFor();
    expect(await page.locator('[data-approval]').textContent()).toContain('"amount":42');
    await page.click('[data-approval] .approve');
    await page.getByText('Done: refunded 42 EUR on order A1').waitFor({ timeout: 30_000 });
    await s.idle();
    expect((await api(s, '/api/runs/demo-refund-paused')).state).toBe('done');
  });

  it('rejects with a message from the page: the model reads it', async () => {
    const s = await demoStudio();
    await page.click('.row[data-id="demo-refund-paused"]');
    await page.locator('[data-approval] input').fill('not before the carrier answers');
    await page.click('[data-approval] .reject');
    await page.getByText('not before the carrier answers').last().waitFor({ timeout: 30_000 });
    await s.idle();
    expect((await api(s, '/api/runs/demo-refund-paused')).state).toBe('done');
  });

  it('forks a run at a call with an edited answer: the fork opens beside its parent', async () => {
    const s = await demoStudio();
    await page.click('.row[data-id="demo-research"]');
    await expect.poll(() => page.locator('.call[data-call]').count()).toBe(3);
    page.once('dialog', (dialog) => void dialog.accept('Bees: I answer without asking anyone.'));
    await page.click('.call[data-call="0"] .fork');
    await page.locator('h2', { hasText: 'demo-research-fork1' }).waitFor({ timeout: 30_000 });
    await page.getByText('Bees: I answer without asking anyone.').first().waitFor({ timeout: 30_000 });
    await s.idle();
    const fork = await api(s, '/api/runs/demo-research-fork1');
    expect(fork.calls).toBe(1);
    await expect.poll(() => page.locator('#compare').textContent()).toContain('demo-research');
  });

  it('refuses a request from another origin: a forged approval does not resume the run', async () => {
    const s = await demoStudio();
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>evil</title>');
    });
    await new Promise<void>((ok) => evil.listen(0, '127.0.0.1', ok));
    try {
      const evilPage = await browser.newPage();
      await evilPage.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      const pending = (await api(s, '/api/runs/demo-refund-paused')).pending as { id: string }[];
      const status = await evilPage.evaluate(
        async ({ url, id }) => {
          const res = await fetch(url, {
            method: 'POST',
            mode: 'no-cors',
            headers: { 'Content-Type': 'text/plain' },
            body: JSON.stringify({ [id]: { approved: true } }),
          });
          return res.type;
        },
        {
          url: `http://127.0.0.1:${s.port}/api/runs/demo-refund-paused/approvals?token=${s.token}`,
          id: pending[0]!.id,
        },
      );
      expect(status).toBe('opaque');
      await evilPage.close();
      await s.idle();
      expect((await api(s, '/api/runs/demo-refund-paused')).state).toBe('paused');
    } finally {
      evil.closeAllConnections();
      await new Promise<void>((ok) => evil.close(() => ok()));
    }
  });

  it('writes provider and task text as text, never as markup', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir] });
    page = await browser.newPage();
    await page.goto(studio.url);
    await page.locator('.row').first().waitFor();
    expect(await page.locator('.row').first().textContent()).toContain('<script>alert(1)</script>');
    expect(await page.locator('#runs script').count()).toBe(0);
  });

  it('shows each call with its request folded, answer, usage and time as its entry records them, as text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-page-'));
    writeFileSync(join(dir, '.swarm-journal'), `${JSON.stringify({ swarmJournalDir: 1 })}\n`);
    writeFileSync(
      join(dir, 'r.run.json'),
      JSON.stringify({
        swarmRun: 1,
        runId: 'r',
        specFile: 'd.yaml',
        spec: { type: 'agent', name: 'desk' },
        task: 't',
        createdAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 2, reasoningTokens: 1, totalTokens: 15 };
    const entry = (n: number, extra: Record<string, unknown>) =>
      `${JSON.stringify({ type: 'model', key: `key${n}#0`, path: ['desk'], agent: 'desk', model: 'mock:desk', response: { text: `answer ${n} <b>bold</b>`, toolCalls: [], usage, finishReason: 'stop', modelId: 'mock:desk' }, ...extra })}\n`;
    const file = join(dir, 'r.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ swarmJournal: 1, runId: 'r' })}\n${entry(0, {
        startedAt: '2026-01-01T00:00:01.000Z',
        endedAt: '2026-01-01T00:00:02.500Z',
        request: {
          system: 'You refund orders.',
          messages: [
            { role: 'user', content: 'Refund <img src=x onerror="window.hacked=1">' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'c', name: 'refund', arguments: { amount: 42 } }],
            },
          ],
        },
      })}${entry(1, {})}`,
    );
    studio = await startStudio({ journals: [dir], pollMs: 50 });
    page = await browser.newPage();
    await page.goto(studio.url);
    await page.click('.row[data-id="r"]');
    await expect.poll(() => page.locator('.call[data-call]').count()).toBe(2);
    const first = page.locator('.call[data-call="0"]');
    expect(await first.locator('.time').textContent()).toBe(
      'started 2026-01-01T00:00:01.000Z · ended 2026-01-01T00:00:02.500Z (1.50 s)',
    );
    expect(await first.locator('.usage').textContent()).toBe(
      '10 in · 5 out · 2 cached · 1 reasoning · 15 tokens · finish: stop',
    );
    expect(await first.locator('.answer').textContent()).toBe('answer 0 <b>bold</b>');
    // Folded until opened.
    const request = first.locator('details.request');
    expect(await request.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
    expect(await request.locator('summary').textContent()).toBe('request · 2 message(s)');
    await request.locator('summary').click();
    expect(await request.locator('.msg').evaluateAll((rows) => rows.map((r) => r.textContent))).toEqual([
      'systemYou refund orders.',
      'userRefund <img src=x onerror="window.hacked=1">',
      'assistantrefund {"amount":42}',
    ]);
    expect(await page.locator('#calls img, #calls b b').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
    // A call whose entry records neither says so.
    const second = page.locator('.call[data-call="1"]');
    expect(await second.locator('.time').textContent()).toBe('time: not recorded in the journal');
    expect(await second.locator('details.request').textContent()).toContain('not recorded in the journal');

    // The file replaced under the page: it is drawn again from its start, nothing twice.
    writeFileSync(`${file}.new`, `${JSON.stringify({ swarmJournal: 1, runId: 'r' })}\n${entry(7, {})}`);
    renameSync(`${file}.new`, file);
    await expect
      .poll(() => page.locator('.call[data-call="0"] .answer').textContent())
      .toBe('answer 7 <b>bold</b>');
    expect(await page.locator('.call[data-call]').count()).toBe(1);
  });

  it('shows why a run has its state', async () => {
    await demoStudio();
    expect(await page.locator('.row[data-id="demo-refund-paused"] .state').getAttribute('title')).toBe(
      'waits for approval of 1 call(s)',
    );
    await page.click('.row[data-id="demo-research"]');
    await expect.poll(() => page.locator('#run-reason').textContent()).toBe('its final answer is journaled');
    expect(await page.locator('#run-state').getAttribute('data-state')).toBe('done');
  });

  it("draws a run the studio ran with its host's report, in a sandboxed frame", async () => {
    const dir = await pausedDesk();
    studio = await startStudio({
      journals: [dir],
      resume: resumeDesk,
      report: ({ id, events }) =>
        `<!doctype html><p id="drawn">${events.filter((e) => e.type === 'model.response').length} calls of ${id.replace(/[^a-z0-9-]/g, '')}</p><script>parent.document.title = 'owned'</script>`,
    });
    page = await browser.newPage();
    await page.goto(studio.url);
    await page.click('.row[data-id="run-1"]');
    // Not run in this studio yet: nothing to draw.
    await page.locator('[data-approval] .approve').waitFor();
    expect(await page.locator('#views iframe').count()).toBe(0);
    await page.click('[data-approval] .approve');
    await expect
      .poll(() => page.locator('#run-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('done');
    const frame = page.frameLocator('#views iframe');
    await expect
      .poll(() => frame.locator('#drawn').textContent(), { timeout: 30_000 })
      .toBe('2 calls of run-1');
    expect(await page.locator('#views iframe').getAttribute('sandbox')).toBe('');
    // Its script never ran: the frame has no script and an origin of its own.
    expect(await page.title()).toBe('swarm studio');
    const report = await fetch(`http://127.0.0.1:${studio.port}/api/runs/run-1/report?token=${studio.token}`);
    expect(report.headers.get('content-security-policy')).toContain('sandbox');
  });
});
