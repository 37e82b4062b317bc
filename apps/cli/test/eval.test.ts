import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specsDir, swarm } from './swarm-process.js';

const dir = mkdtempSync(join(tmpdir(), 'swarm-eval-'));
let server: MockProviderServer;
let env: Record<string, string>;

beforeAll(async () => {
  // The "good" model always answers 4, the other "five".
  server = await mockProviderServer({
    handler: (request) => ({ text: String(request.body.model).includes('good') ? '4' : 'five' }),
  });
  env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.openaiBaseURL };
});
afterAll(() => server?.close());

describe('swarm eval', () => {
  it('compares a spec under two models on a dataset: table, --json and --report', async () => {
    const dataset = join(dir, 'sums.jsonl');
    writeFileSync(dataset, '{"input":"2 + 2?","expected":"4"}\n{"input":"1 + 3?","expected":"4"}\n');
    const spec = join(specsDir, 'sequential-workflow.yaml');
    const models = ['--models', 'openai:mock-good,openai:mock-bad'];

    const table = await swarm(['eval', spec, '--dataset', dataset, ...models], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^sequential-workflow @ openai:mock-good\s+1\.000 \[1\.00, 1\.00\]/m);
    expect(table.stdout).toMatch(/^sequential-workflow @ openai:mock-bad\s+0\.000 \[0\.00, 0\.00\]/m);

    const report = join(dir, 'eval.html');
    const ran = await swarm(
      ['eval', spec, '--dataset', dataset, ...models, '--json', '--report', report],
      env,
    );
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as {
      candidates: { name: string; scores: Record<string, { mean: number }>; cost: { llmCalls: number } }[];
      runs: unknown[];
    };
    expect(result.candidates.map((c) => [c.name, c.scores.exact?.mean, c.cost.llmCalls])).toEqual([
      ['sequential-workflow @ openai:mock-good', 1, 4],
      ['sequential-workflow @ openai:mock-bad', 0, 4],
    ]);
    expect(result.runs).toHaveLength(4);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<svg id="plot"');
    expect(html).toContain('sequential-workflow @ openai:mock-good');
  });

  it('a bad dataset line is reported as file:line before any call, exit 2', async () => {
    const dataset = join(dir, 'bad.jsonl');
    writeFileSync(dataset, '{"input":"a","expected":"b"}\n{"expected":"c"}\n');
    const before = server.requests.length;
    const ran = await swarm(['eval', join(specsDir, 'sequential-workflow.yaml'), '--dataset', dataset], {
      ...env,
      SWARM_MODEL: 'openai:mock-good',
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`${dataset}:2: the item has no "input".`);
    expect(server.requests.length).toBe(before);
  });

  it('needs --dataset', async () => {
    const ran = await swarm(['eval', join(specsDir, 'sequential-workflow.yaml')], env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('swarm eval needs --dataset');
  });
});
