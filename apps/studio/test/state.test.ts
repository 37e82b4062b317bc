import { appendFileSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Studio, startStudio } from '../src/index.js';
import { pausedDesk, resumeDesk } from './fixture.js';

let studio: Studio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const get = async (s: Studio, path: string) =>
  (await fetch(`http://127.0.0.1:${s.port}${path}?token=${s.token}`)).json() as Promise<
    Record<string, unknown>
  >;

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };
const model = (path: string[], text: string, toolCalls: unknown[] = [], n = 0) =>
  `${JSON.stringify({ type: 'model', key: `k${n}#0`, path, model: 'm', response: { text, toolCalls, usage, finishReason: toolCalls.length ? 'tool-calls' : 'stop', modelId: 'm' } })}\n`;

// A folder with run `r` whose journal holds `lines`, last written an hour ago.
function folder(lines: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'studio-state-'));
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
  const file = join(dir, 'r.jsonl');
  writeFileSync(file, `${JSON.stringify({ swarmJournal: 1, runId: 'r' })}\n${lines}`);
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(file, hourAgo, hourAgo);
  utimesSync(join(dir, 'r.run.json'), hourAgo, hourAgo);
  return { dir, file };
}

const call = { id: 'c0', name: 'researcher', arguments: { task: 'x' } };

describe('run states', () => {
  it('a run cut before its final answer is stopped; written a moment ago, it is running elsewhere', async () => {
    // The lead asked its researcher, the researcher answered, the lead never answered again.
    const { dir, file } = folder(model(['lead'], '', [call]) + model(['lead', 'researcher'], 'facts', [], 1));
    studio = await startStudio({ journals: [dir], liveWindowMs: 60_000 });
    expect(await get(studio, '/api/runs/r')).toMatchObject({
      state: 'stopped',
      stateReason: expect.stringContaining('before its final answer'),
    });
    appendFileSync(file, model(['lead', 'researcher'], 'more facts', [], 2));
    expect(await get(studio, '/api/runs/r')).toMatchObject({
      state: 'running',
      stateReason: expect.stringContaining('another process'),
    });
  });

  it('a run whose outermost agent answered with no tool call is done', async () => {
    const { dir } = folder(
      model(['lead'], '', [call]) +
        model(['lead', 'researcher'], 'facts', [], 1) +
        model(['lead'], 'answer', [], 2),
    );
    studio = await startStudio({ journals: [dir] });
    expect((await get(studio, '/api/runs/r')).state).toBe('done');
  });

  it('a run whose record was just written and whose journal is not yet is running elsewhere; later, stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-state-'));
    writeFileSync(
      join(dir, 'r.run.json'),
      JSON.stringify({
        swarmRun: 1,
        runId: 'r',
        specFile: 'd.yaml',
        spec: { type: 'agent' },
        task: 't',
        createdAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    studio = await startStudio({ journals: [dir], liveWindowMs: 60_000 });
    expect((await get(studio, '/api/runs/r')).state).toBe('running');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(dir, 'r.run.json'), hourAgo, hourAgo);
    expect(await get(studio, '/api/runs/r')).toMatchObject({
      state: 'stopped',
      stateReason: 'no call journaled, and nothing runs it',
    });
  });

  it('a journal that does not read is failed, with the line that is wrong', async () => {
    const { dir } = folder(`${model(['lead'], 'a')}{oops\n`);
    studio = await startStudio({ journals: [dir] });
    expect(await get(studio, '/api/runs/r')).toMatchObject({
      state: 'failed',
      stateReason: expect.stringContaining('line 3 is not valid JSON'),
    });
  });

  it('a run the studio executes is running until it ends; one whose resume failed is failed with its error', async () => {
    const dir = await pausedDesk();
    let release: () => void = () => {};
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    let fail = false;
    studio = await startStudio({
      journals: [dir],
      resume: async (run, approvals, onEvent) => {
        if (fail) throw new Error('the provider is down');
        await held;
        await resumeDesk(run, approvals, onEvent);
      },
    });
    const pending = (await get(studio, '/api/runs/run-1')).pending as { id: string }[];
    const approve = () =>
      fetch(`http://127.0.0.1:${studio!.port}/api/runs/run-1/approvals?token=${studio!.token}`, {
        method: 'POST',
        body: JSON.stringify({ [pending[0]!.id]: { approved: true } }),
      });
    fail = true;
    expect((await approve()).status).toBe(202);
    await studio.idle();
    expect(await get(studio, '/api/runs/run-1')).toMatchObject({
      state: 'failed',
      stateReason: expect.stringContaining('the provider is down'),
    });
    // Another process goes on with the run: its journal written after the failure outdates it.
    const file = join(dir, 'run-1.jsonl');
    const later = new Date(Date.now() + 2_000);
    utimesSync(file, later, later);
    expect(await get(studio, '/api/runs/run-1')).toMatchObject({
      state: 'paused',
      stateReason: 'waits for approval of 1 call(s)',
    });
    fail = false;
    expect((await approve()).status).toBe(202);
    expect(await get(studio, '/api/runs/run-1')).toMatchObject({
      state: 'running',
      stateReason: 'running in this studio',
    });
    release();
    await studio.idle();
    expect((await get(studio, '/api/runs/run-1')).state).toBe('done');
  });

  it('refuses a live window or a poll interval that is not a positive number of milliseconds', async () => {
    await expect(startStudio({ journals: ['.'], liveWindowMs: -1 })).rejects.toThrow(
      'startStudio: liveWindowMs must be a positive number of milliseconds (got -1).',
    );
    await expect(startStudio({ journals: ['.'], pollMs: Number.NaN })).rejects.toThrow(
      'startStudio: pollMs must be a positive number of milliseconds (got null).',
    );
  });
});
