import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundDeskModel, swarm, swarmBin, testSpecsDir } from './swarm-process.js';

let server: MockProviderServer;
let env: Record<string, string>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await mockProviderServer({ handler: refundDeskModel });
  env = {
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
});
afterAll(async () => {
  for (const child of children) child.kill();
  await server.close();
});

// Starts `swarm studio ...args`; resolves with the address it prints.
function startStudio(args: string[]): Promise<URL> {
  return started(['studio', ...args], 'stdout').url;
}

// Starts `swarm ...args`; `url` resolves with the studio address it prints on `stream`.
function started(args: string[], stream: 'stdout' | 'stderr') {
  const child = spawn(process.execPath, [swarmBin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  children.push(child);
  let text = '';
  const url = new Promise<URL>((ok, fail) => {
    child[stream].on('data', (d) => {
      text += d;
      const found = /swarm studio: (http\S+)/.exec(text)?.[1];
      if (found) ok(new URL(found));
    });
    child.on('close', (code) =>
      fail(new Error(`swarm ${args[0]} ended (${code}) before printing its address`)),
    );
  });
  return { child, url, text: () => text };
}

const get = async (url: URL, path: string) =>
  (await fetch(`${url.origin}${path}?token=${url.searchParams.get('token')}`)).json() as Promise<
    Record<string, unknown>
  >;

describe('swarm studio', () => {
  it('lists a journaled run that paused, and an approval from the API resumes it in the studio', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'swarm-studio-')), 'runs');
    const ran = await swarm(['run', join(testSpecsDir, 'refund-desk.yaml'), '--journal', dir, '--json'], env);
    expect(ran.code).toBe(0);
    const runId = JSON.parse(ran.stdout).runId as string;
    const url = await startStudio(['--journal', dir]);
    expect(url.hostname).toBe('127.0.0.1');
    const runs = (await get(url, '/api/runs')) as unknown as Record<string, unknown>[];
    expect(runs).toMatchObject([{ id: runId, state: 'paused', calls: 1, topology: 'SequentialWorkflow' }]);
    const pending = (await get(url, `/api/runs/${runId}`)).pending as { id: string }[];
    const posted = await fetch(
      `${url.origin}/api/runs/${runId}/approvals?token=${url.searchParams.get('token')}`,
      {
        method: 'POST',
        body: JSON.stringify({ [pending[0]!.id]: { approved: true } }),
      },
    );
    expect(posted.status).toBe(202);
    await expect
      .poll(async () => (await get(url, `/api/runs/${runId}`)).state, { timeout: 30_000, interval: 200 })
      .toBe('done');
  });

  it('swarm run --studio serves the run live; its pause is approved from the studio, with a note, in that process', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'swarm-studio-')), 'runs');
    const run = started(
      [
        'run',
        join(testSpecsDir, 'refund-desk.yaml'),
        '--journal',
        dir,
        '--run-id',
        'live-1',
        '--studio',
        '--quiet',
      ],
      'stderr',
    );
    const url = await run.url;
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.searchParams.get('token')).toMatch(/^[0-9a-f]{32}$/);
    await expect
      .poll(async () => (await get(url, '/api/runs/live-1')).state, { timeout: 30_000, interval: 200 })
      .toBe('paused');
    const pending = (await get(url, '/api/runs/live-1')).pending as { id: string }[];
    // Run in this process: the report draws it from its events, the pause's waiting call included.
    const report = async () =>
      (await fetch(`${url.origin}/api/runs/live-1/report?token=${url.searchParams.get('token')}`)).text();
    const paused = await report();
    expect(paused).toContain(`<tr data-pending="${pending[0]!.id}">`);
    expect(paused.match(/<tr data-call/g)).toHaveLength(1);
    const posted = await fetch(
      `${url.origin}/api/runs/live-1/approvals?token=${url.searchParams.get('token')}`,
      {
        method: 'POST',
        body: JSON.stringify({ [pending[0]!.id]: { approved: true, message: 'ok = booked' } }),
      },
    );
    expect(posted.status).toBe(202);
    await expect
      .poll(async () => (await get(url, '/api/runs/live-1')).state, { timeout: 30_000, interval: 200 })
      .toBe('done');
    const entries = (await get(url, '/api/runs/live-1')).entries as { type: string; approved?: boolean }[];
    expect(entries.filter((e) => e.type === 'tool')).toMatchObject([{ approved: true }]);
    // The resumed attempt, drawn: its first call answered from the journal, two live.
    const done = await report();
    expect(done.match(/<tr data-call/g)).toHaveLength(3);
    expect(done.match(/<tr data-call data-replayed="true"/g)).toHaveLength(1);
    expect(run.text()).toContain(
      'this run is over for now (the page says how it ended); the studio stays at',
    );
  });

  it('swarm run --studio needs --journal, and --open needs --studio', async () => {
    const ran = await swarm(['run', join(testSpecsDir, 'refund-desk.yaml'), '--studio'], env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--studio: give the run a journal folder to watch (--journal <dir>)');
    const open = await swarm(['run', join(testSpecsDir, 'refund-desk.yaml'), '--open'], env);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--open: opens the studio of --studio; give --studio too');
  });

  it('swarm resume --approve <id>=<note> approves the call with its note', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'swarm-studio-')), 'runs');
    const ran = await swarm(['run', join(testSpecsDir, 'refund-desk.yaml'), '--journal', dir, '--json'], env);
    const { runId, pending } = JSON.parse(ran.stdout) as { runId: string; pending: { id: string }[] };
    const resumed = await swarm(
      ['resume', dir, runId, '--approve', `${pending[0]!.id}=ok = booked`, '--json'],
      env,
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).output).toContain('Dear customer');
  });

  it('refuses a folder that is not a journal folder', async () => {
    const ran = await swarm(['studio', '--journal', mkdtempSync(join(tmpdir(), 'swarm-studio-'))]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('not a swarm journal directory');
  });
});
