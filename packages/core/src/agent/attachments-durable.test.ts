import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentPart, Model } from '../contracts/model.js';
import { contentHash } from '../kernel/canonical-request.js';
import { fileJournal } from '../kernel/file-journal.js';
import { recordModel } from '../testing/record-model.js';
import { replayModel } from '../testing/replay-model.js';
import { reply, ScriptedModel } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

// A 256 KiB "scan": big enough that inlining it anywhere would show in the file sizes.
const scanBytes = Uint8Array.from({ length: 256 * 1024 }, (_, i) => (i * 31) % 251);
const scanBase64 = Buffer.from(scanBytes).toString('base64');
const scan = (): ContentPart => ({ type: 'image', data: scanBytes.slice(), mediaType: 'image/png' });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'attachments-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const reader = (model: Model) => new Agent({ name: 'reader', instructions: 'Read the scan.', model });

describe('attachments in journals and cassettes', () => {
  it('gives the same bytes one content hash, as bytes, base64 or a data URL', () => {
    const hash = contentHash(scanBytes);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(contentHash(scanBase64)).toBe(hash);
    expect(contentHash(scanBytes.slice(1))).not.toBe(hash);
  });

  it('resumes a journaled run with the same image from the journal, which holds no image bytes', async () => {
    const journal = fileJournal(join(dir, 'runs'));
    const first = new ScriptedModel([reply('The scan shows a fracture.')]);
    const live = await reader(first).run('What does the scan show?', {
      journal,
      runId: 'scan-1',
      attachments: [scan()],
    });
    expect(first.calls).toHaveLength(1);

    // The same image again, as base64 this time: the journal answers, the model is not called.
    const second = new ScriptedModel([]);
    const again = await reader(second).run('What does the scan show?', {
      journal,
      runId: 'scan-1',
      attachments: [{ type: 'image', data: scanBase64, mediaType: 'image/png' }],
    });
    expect(second.calls).toHaveLength(0);
    expect(again).toMatchObject({ output: live.output, replayedCalls: 1, liveCalls: 0 });

    const files = readdirSync(join(dir, 'runs'));
    const bytes = files.reduce((sum, f) => sum + statSync(join(dir, 'runs', f)).size, 0);
    expect(bytes).toBeLessThan(4096);
  });

  it('goes live when the image differs: a different picture is a different question', async () => {
    const journal = fileJournal(join(dir, 'runs'));
    await reader(new ScriptedModel([reply('A fracture.')])).run('What does it show?', {
      journal,
      runId: 'scan-2',
      attachments: [scan()],
    });
    const other = new ScriptedModel([reply('No fracture.')]);
    const result = await reader(other).run('What does it show?', {
      journal,
      runId: 'scan-2',
      attachments: [{ type: 'image', data: scanBytes.slice(1), mediaType: 'image/png' }],
    });
    expect(other.calls).toHaveLength(1);
    expect(result).toMatchObject({ output: 'No fracture.', liveCalls: 1 });
  });

  it('records the image in a cassette as its hash, and replays it offline', async () => {
    const file = join(dir, 'scan.jsonl');
    const recorded = await reader(recordModel(new ScriptedModel([reply('A fracture.')]), { file })).run(
      'What does the scan show?',
      { attachments: [scan()] },
    );
    const line = readFileSync(file, 'utf8');
    expect(line.length).toBeLessThan(2048);
    expect(JSON.parse(line).request.messages[0].content).toEqual([
      { type: 'text', text: 'What does the scan show?' },
      { type: 'image', mediaType: 'image/png', sha: contentHash(scanBytes) },
    ]);

    const replay = replayModel({ file });
    const replayed = await reader(replay).run('What does the scan show?', {
      attachments: [{ type: 'image', url: `data:image/png;base64,${scanBase64}` }],
    });
    expect(replayed.output).toBe(recorded.output);
    replay.assertComplete();
  });
});
