import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarm } from './swarm-process.js';

let server: MockProviderServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'swarm-attach-'));
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
const spec = join(dir, 'reader.yaml');

beforeAll(async () => {
  server = await mockProviderServer({ handler: () => ({ text: 'A chart and a report.' }) });
  env = {
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
  writeFileSync(join(dir, 'chart.png'), png);
  writeFileSync(join(dir, 'report.pdf'), '%PDF-1.4');
  writeFileSync(join(dir, 'notes.csv'), 'a,b');
  writeFileSync(
    spec,
    [
      'name: Reader',
      'topology: SequentialWorkflow',
      'agents:',
      '  - name: reader',
      '    instructions: Read what you are given.',
      'attachments:',
      '  - chart.png',
      '',
    ].join('\n'),
  );
});
afterAll(() => server.close());

type Sent = { role: string; content: unknown };

describe('swarm run --attach', () => {
  it("sends the spec's attachments and each --attach file with the task, as image and file parts", async () => {
    const before = server.requests.length;
    const ran = await swarm(['run', spec, 'What do these show?', '--attach', join(dir, 'report.pdf')], env);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('A chart and a report.');
    const sent = server.requests[before]!.body.messages as Sent[];
    expect(sent.find((m) => m.role === 'user')!.content).toEqual([
      { type: 'text', text: 'What do these show?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
      {
        type: 'file',
        file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' },
      },
    ]);
  });

  it('names a missing file and an unknown type, exits 2, and calls no model', async () => {
    const before = server.requests.length;
    const ran = await swarm(
      [
        'run',
        spec,
        'Read.',
        '--attach',
        join(dir, 'missing.png'),
        '--attach',
        join(dir, 'notes.csv'),
        '--quiet',
      ],
      env,
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`--attach ${join(dir, 'missing.png')}: cannot read it (ENOENT)`);
    expect(ran.stderr).toContain(`--attach ${join(dir, 'notes.csv')}: unknown file type`);
    expect(server.requests.length).toBe(before);
  });

  it('resumes a journaled run with its attachments: the same files replay from the journal', async () => {
    const journal = join(dir, 'journal');
    const first = await swarm(['run', spec, 'What is it?', '--journal', journal, '--json', '--quiet'], env);
    expect(first.code).toBe(0);
    const { runId } = JSON.parse(first.stdout) as { runId: string };
    const before = server.requests.length;
    const resumed = await swarm(['resume', journal, runId, '--json', '--quiet'], env);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ replayedCalls: 1, liveCalls: 0 });
    expect(server.requests.length).toBe(before);
  });

  it("refuses a spec's attachment outside its folder (../, absolute, a link out) unless --allow-path, and calls no model", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'swarm-statements-'));
    writeFileSync(join(outside, 'statement.pdf'), '%PDF-1.4 secret');
    const shared = join(dir, 'shared');
    mkdirSync(shared, { recursive: true });
    symlinkSync(join(outside, 'statement.pdf'), join(shared, 'link.pdf'));
    const sharedSpec = (name: string, attachment: string) => {
      const path = join(shared, name);
      writeFileSync(
        path,
        `name: Reader\ntopology: SequentialWorkflow\nagents:\n  - name: reader\nattachments:\n  - ${attachment}\n`,
      );
      return path;
    };
    const before = server.requests.length;
    for (const attachment of [
      `../../${outside.split('/').at(-1)}/statement.pdf`,
      join(outside, 'statement.pdf'),
      'link.pdf',
    ]) {
      const specFile = sharedSpec('exfiltrate.yaml', attachment);
      const ran = await swarm(['run', specFile, 'Summarise.', '--quiet'], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(`attachments: ${attachment}: outside the spec's folder`);
      expect(ran.stderr).toContain('--allow-path');
    }
    expect(server.requests.length).toBe(before);

    const allowed = await swarm(
      [
        'run',
        sharedSpec('allowed.yaml', join(outside, 'statement.pdf')),
        'Summarise.',
        '--quiet',
        '--allow-path',
        outside,
      ],
      env,
    );
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(server.requests.length).toBe(before + 1);
  });

  it('refuses a file larger than the attachment limit, saying how large it is', async () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, Buffer.alloc(21 * 1024 * 1024, 0x61));
    const before = server.requests.length;
    const ran = await swarm(['run', spec, 'Read.', '--attach', big, '--quiet'], env);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      `--attach ${big}: 21.0 MiB is larger than the 20.0 MiB an attachment may be`,
    );
    expect(server.requests.length).toBe(before);
  });
});
