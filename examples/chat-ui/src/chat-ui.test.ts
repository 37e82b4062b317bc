// The chat page in Debian's chromium (through playwright-core, never a downloaded browser): a team's
// run rendered by the AI SDK's client-side reader, as it happens; Stop aborting the run on the
// server; a failed run's error on the page.
import { existsSync } from 'node:fs';
import { ModelError, type Topology } from '@swarm/core';
import { fail, ScriptedModel } from '@swarm/core/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage, type ChatServer, startChatServer } from './server.js';
import { createRefundDesk, createTeam } from './team.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let browser: Browser;
let server: ChatServer | undefined;

beforeAll(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `No chromium at ${executablePath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  // Bundled once, before the tests (a server reuses it): on a busy machine esbuild takes seconds.
  await bundlePage();
  browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}, 120_000);
afterAll(() => browser?.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Opens the page of a server for `team`; the returned list collects the page's errors. */
async function openChat(team: Topology): Promise<{ page: Page; pageErrors: string[] }> {
  server = await startChatServer({ team });
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(server.url);
  return { page, pageErrors };
}

const task = 'When was the paperclip patented?';

describe('the chat page, in a real browser', { timeout: 60_000 }, () => {
  it("shows the team's run as it happens: each agent's streamed text, the tool call, the nested checker, the answer", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { page, pageErrors } = await openChat(createTeam(undefined, { paceMs: 40, hold }));
    await page.fill('#task', task);
    await page.click('#run');

    // As it happens: an agent's text is on the page, still streaming, before the answer is. The
    // run is held after its first piece of text until the page has been looked at.
    await page.waitForSelector('.part.text.streaming');
    expect(await page.textContent('#answer')).toBe('');
    release();
    await page.waitForFunction(
      () => (document.getElementById('answer')?.textContent ?? '') !== '',
      undefined,
      {
        timeout: 10_000,
      },
    );

    const texts = await page.$$eval('.part.text', (nodes) =>
      nodes.map((n) => [(n as HTMLElement).dataset.agent, n.querySelector('.body')?.textContent]),
    );
    const checked = `Checked: "The main claim of: ${task}" holds up.`;
    expect(texts).toEqual([
      ['fact-checker', checked],
      ['researcher', `Key facts gathered. ${checked}`],
      ['writer', 'Here is the answer, written from checked facts: all clear.'],
    ]);
    expect(await page.textContent('.part.tool')).toBe(
      `fact_checker({"task":"The main claim of: ${task}"}) → ${checked}`,
    );
    // The checker ran nested in the workflow, under the researcher's tool call.
    const checker = page.locator('.part.agent[data-agent="fact-checker"]');
    expect(await checker.textContent()).toBe('fact-checker · done');
    expect(await checker.evaluate((n) => (n as HTMLElement).style.marginLeft)).toBe('1.5em');
    expect(await page.textContent('.part.run')).toBe('▸ SequentialWorkflow · done');
    expect(await page.textContent('#answer')).toBe(
      'Here is the answer, written from checked facts: all clear.',
    );
    expect(await page.textContent('#status')).toBe('Done.');
    expect(pageErrors).toEqual([]);
    expect(server!.outcomes).toEqual(['done']);
  });

  it('Stop aborts the run on the server, and the page says it stopped', async () => {
    // Held after the first piece of text and never released: only Stop ends this run.
    const { page, pageErrors } = await openChat(createTeam(undefined, { hold: new Promise(() => {}) }));
    await page.click('#run');
    await page.waitForSelector('.part.text.streaming');
    await page.click('#stop');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Stopped.');
    await expect.poll(() => server!.outcomes).toEqual(['aborted']);
    expect(await page.textContent('#answer')).toBe('');
    expect(pageErrors).toEqual([]);
  });

  it("shows a failed run's error on the page", async () => {
    const failing = new ScriptedModel([
      fail(new ModelError('acme: quota exceeded', { provider: 'acme', status: 429 })),
    ]);
    const { page, pageErrors } = await openChat(createTeam(failing));
    await page.click('#run');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'The run failed.');
    expect(await page.textContent('#error')).toBe('acme: quota exceeded');
    expect(await page.textContent('.part.run')).toBe('▸ SequentialWorkflow · failed: acme: quota exceeded');
    expect(pageErrors).toEqual([]);
    expect(server!.outcomes).toEqual(['failed']);
  });

  it('a call that needs approval shows Approve / Reject; Approve resumes the run on the server, the call made once', async () => {
    const { desk, refunds } = createRefundDesk();
    const { page, pageErrors } = await openChat(desk);
    await page.fill('#task', 'Refund order A-17, please.');
    await page.click('#run');
    await page.waitForFunction(
      () => document.getElementById('status')?.textContent === 'Waiting for your approval.',
    );
    expect(await page.textContent('.part.tool')).toContain('refund({"order":"A-17"}) · needs your approval');
    expect(await page.textContent('.part.run')).toBe('▸ SequentialWorkflow · paused');
    expect(await page.textContent('#error')).toBe('');
    expect(server!.outcomes).toEqual(['paused']);
    expect(refunds).toEqual([]);

    await page.click('button.approval.approve');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Done.');
    expect(await page.textContent('#answer')).toBe('The order is refunded.');
    expect(await page.textContent('.part.tool')).toContain('→ Order A-17 refunded.');
    expect(await page.textContent('.part.run')).toBe('▸ SequentialWorkflow · done');
    expect(refunds).toEqual(['A-17']);
    expect(server!.outcomes).toEqual(['paused', 'done']);
    expect(pageErrors).toEqual([]);
  });

  it('Reject answers the model instead: the tool never runs', async () => {
    const { desk, refunds } = createRefundDesk();
    const { page, pageErrors } = await openChat(desk);
    await page.click('#run');
    await page.waitForSelector('button.approval.reject');
    await page.click('button.approval.reject');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Done.');
    expect(await page.textContent('#answer')).toBe('The refund was not made.');
    expect(refunds).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
