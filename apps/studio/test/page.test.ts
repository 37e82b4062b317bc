import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resumeDemo, type Studio, startStudio, writeDemoJournal } from '../src/index.js';
import { pausedDesk } from './fixture.js';

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
});
