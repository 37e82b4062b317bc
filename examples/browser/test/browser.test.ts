import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedPage, type ServePageOptions, servePage } from '../src/server.js';

// Debian's chromium, which .ci/run installs; never a downloaded browser.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `No chromium at ${executablePath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
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
}, 60_000);
afterAll(() => browser?.close());

/** Serves the bundled page, opens it and waits until both runs ended; every console error and page error is kept. */
async function openPage(options: ServePageOptions = {}): Promise<{
  page: Page;
  served: ServedPage;
  errors: string[];
  text: (id: string) => Promise<string>;
}> {
  const served = await servePage(options);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  await page.goto(served.url);
  await page.waitForSelector('body[data-status="done"]', { timeout: 30_000 });
  const text = async (id: string) => (await page.textContent(`#${id}`)) ?? '';
  return { page, served, errors, text };
}

describe('the browser example, bundled for the browser and run in chromium', () => {
  it('routes the puppy question to the dog trainer (sense check on fetched word vectors) and runs the workflow in order', async () => {
    const { page, served, errors, text } = await openPage();
    try {
      expect(await text('forest-error')).toBe('');
      expect(await text('forest-route')).toBe('Home / Dog Trainer');
      expect(await text('forest-sense')).toMatch(/^"trainer" in its sense: \d\.\d{3} >= \d\.\d{3}$/);
      expect(await text('forest-answer')).toBe(
        'Stop walking whenever the leash goes tight, and reward your puppy for walking beside you.',
      );
      // The sense check fetched the vectors from beside the bundle, as from beside @swarm/embeddings' dist/.
      expect(served.requests).toContain('/data/word-vectors.bin');

      expect(await text('workflow-error')).toBe('');
      expect(await text('workflow-steps')).toBe('writer -> editor');
      // The editor answered from the writer's draft; the markup in it is shown as text, not HTML.
      expect(await text('workflow-answer')).toBe(
        'Edited: our <b>bakery</b> opens on Monday, baking rye bread.',
      );
      expect(await page.locator('#workflow-answer b').count()).toBe(0);

      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await served.close();
    }
  }, 60_000);

  it('fails the route with the ConfigError that names senseCheck: false when the word vectors are not served', async () => {
    const { page, served, errors, text } = await openPage({ wordVectors: false });
    try {
      expect(await text('forest-route')).toBe('');
      expect(await text('forest-error')).toBe(
        `ConfigError: The sense check needs the word vectors of @swarm/embeddings: word vectors: cannot fetch ${served.url}data/word-vectors.bin (HTTP 404 Not Found); serve node_modules/@swarm/embeddings/data/word-vectors.bin at that address. (senseCheck: false routes without them).`,
      );
      // The workflow does not need them.
      expect(await text('workflow-answer')).toBe(
        'Edited: our <b>bakery</b> opens on Monday, baking rye bread.',
      );
      // The only error is chromium's report of the missing file.
      expect(errors).toEqual([
        'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
      ]);
      expect(served.requests).toEqual(['/', '/assets/main.js', '/data/word-vectors.bin']);
    } finally {
      await page.close();
      await served.close();
    }
  }, 60_000);
});
