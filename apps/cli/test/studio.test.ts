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
  const child = spawn(process.execPath, [swarmBin, 'studio', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  children.push(child);
  return new Promise((ok, fail) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      const url = /swarm studio: (\S+)/.exec(text)?.[1];
      if (url) ok(new URL(url));
    });
    child.on('close', (code) => fail(new Error(`swarm studio ended (${code}) before printing its address`)));
  });
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

  it('refuses a folder that is not a journal folder', async () => {
    const ran = await swarm(['studio', '--journal', mkdtempSync(join(tmpdir(), 'swarm-studio-'))]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('not a swarm journal directory');
  });
});
