import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  renameSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalTail, type Studio, startStudio, type TailChange } from '../src/index.js';

const header = (runId: string) => `${JSON.stringify({ swarmJournal: 1, runId })}\n`;
const answer = (text: string, n = 0) =>
  `${JSON.stringify({
    type: 'model',
    key: `k${n}#0`,
    path: ['desk'],
    agent: 'desk',
    model: 'mock:desk',
    response: {
      text,
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 },
      finishReason: 'stop',
      modelId: 'mock:desk',
    },
  })}\n`;

function journalDir(runId: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-tail-'));
  writeFileSync(join(dir, '.swarm-journal'), `${JSON.stringify({ swarmJournalDir: 1 })}\n`);
  writeFileSync(
    join(dir, `${runId}.run.json`),
    JSON.stringify({
      swarmRun: 1,
      runId,
      specFile: 'd.yaml',
      spec: { type: 'agent', name: 'desk' },
      task: 't',
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
  );
  return dir;
}

const texts = (changes: TailChange[]) =>
  changes.flatMap((c) =>
    c.type === 'reset' ? ['<reset>'] : c.entries.map((e) => (e.type === 'model' ? e.response.text : e.type)),
  );

describe('JournalTail', () => {
  it('reads only whole lines, keeping a line cut mid-character until its newline arrives', async () => {
    const dir = journalDir('r');
    const file = join(dir, 'r.jsonl');
    const tail = new JournalTail(dir, 'r');
    const changes: TailChange[] = [];
    tail.subscribe((c) => changes.push(c));
    const line = Buffer.from(answer('bees 🐝 and café'));
    const cut = line.indexOf(Buffer.from('🐝')) + 2; // inside the four bytes of the bee
    writeFileSync(file, header('r'));
    await tail.read();
    appendFileSync(file, line.subarray(0, cut));
    await tail.read();
    expect(tail.entries).toEqual([]);
    appendFileSync(file, line.subarray(cut, line.length - 1));
    await tail.read();
    expect(tail.entries).toEqual([]);
    appendFileSync(file, line.subarray(line.length - 1));
    await tail.read();
    await tail.read();
    appendFileSync(file, answer('second', 1));
    await tail.read();
    expect(texts(changes)).toEqual(['bees 🐝 and café', 'second']);
    expect(tail.error).toBeUndefined();
  });

  it('reads the appended bytes only: what was read before is not read again', async () => {
    const dir = journalDir('r');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, header('r') + answer('first'));
    const tail = new JournalTail(dir, 'r');
    await tail.read();
    // The first entry is spoilt in place (same size, same file): a reader of the whole file would fail on it.
    const fd = openSync(file, 'r+');
    writeSync(fd, 'X', header('r').length);
    closeSync(fd);
    appendFileSync(file, answer('second', 1));
    await tail.read();
    expect(tail.error).toBeUndefined();
    expect(tail.entries.map((e) => (e.type === 'model' ? e.response.text : ''))).toEqual(['first', 'second']);
  });

  it('starts over when the file is truncated or replaced by another one', async () => {
    const dir = journalDir('r');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, header('r') + answer('one') + answer('two', 1));
    const tail = new JournalTail(dir, 'r');
    const changes: TailChange[] = [];
    tail.subscribe((c) => changes.push(c));
    await tail.read();
    truncateSync(file, header('r').length);
    await tail.read();
    appendFileSync(file, answer('three', 2));
    await tail.read();
    // Replaced: a new file renamed over it, longer than what was read.
    writeFileSync(`${file}.new`, header('r') + answer('four') + answer('five', 1) + answer('six', 2));
    renameSync(`${file}.new`, file);
    await tail.read();
    expect(texts(changes)).toEqual(['one', 'two', '<reset>', 'three', '<reset>', 'four', 'five', 'six']);
  });

  it('names the line of a file that is not a journal, and reads no further', async () => {
    const dir = journalDir('r');
    writeFileSync(join(dir, 'r.jsonl'), `${header('r')}${answer('ok')}not json\n${answer('after', 1)}`);
    const tail = new JournalTail(dir, 'r');
    await tail.read();
    expect(tail.entries).toHaveLength(1);
    expect(tail.error).toContain('line 3 is not valid JSON');
  });
});

let studio: Studio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

// Collects the stream's events until `until` holds for them.
function watch(s: Studio, path: string) {
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  const waiters: { test: () => boolean; ok: () => void }[] = [];
  const req = request(
    {
      host: '127.0.0.1',
      port: s.port,
      path: `${path}?token=${s.token}`,
      headers: { host: `127.0.0.1:${s.port}` },
    },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
          events.push({ event, data });
        }
        for (const w of [...waiters]) if (w.test()) w.ok();
      });
    },
  );
  req.end();
  return {
    events,
    until: (test: () => boolean) =>
      new Promise<void>((ok) => {
        if (test()) ok();
        else waiters.push({ test, ok });
      }),
    close: () => req.destroy(),
  };
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('the event stream', () => {
  it('sends each entry of a journal appended in pieces exactly once, to every client', async () => {
    const dir = journalDir('r');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, header('r'));
    studio = await startStudio({ journals: [dir], pollMs: 20 });
    const a = watch(studio, '/api/runs/r/events');
    const b = watch(studio, '/api/runs/r/events');
    const pieces = Buffer.from(
      answer('première — 🐝', 0) + answer('deuxième', 1) + answer('troisième 🐝🐝', 2),
    );
    // Pieces of 7 bytes: lines, and characters, are cut everywhere; the clients read between them.
    for (let at = 0; at < pieces.length; at += 7) {
      appendFileSync(file, pieces.subarray(at, at + 7));
      await pause(5);
    }
    appendFileSync(file, answer('last', 3));
    const entries = (w: ReturnType<typeof watch>) =>
      w.events
        .filter((e) => e.event === 'entry')
        .map((e) => (e.data as { response: { text: string } }).response.text);
    await a.until(() => entries(a).includes('last'));
    await b.until(() => entries(b).includes('last'));
    // A few more reads of the file: nothing comes twice.
    await pause(200);
    a.close();
    b.close();
    const expected = ['première — 🐝', 'deuxième', 'troisième 🐝🐝', 'last'];
    expect(entries(a)).toEqual(expected);
    expect(entries(b)).toEqual(expected);
  });

  it("says reset when the journal file was replaced, then sends the new file's entries", async () => {
    const dir = journalDir('r');
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, header('r') + answer('old one') + answer('old two', 1));
    studio = await startStudio({ journals: [dir], pollMs: 20 });
    const w = watch(studio, '/api/runs/r/events');
    await w.until(() => w.events.filter((e) => e.event === 'entry').length === 2);
    writeFileSync(
      `${file}.new`,
      header('r') + answer('new one') + answer('new two', 1) + answer('new three', 2),
    );
    renameSync(`${file}.new`, file);
    await w.until(() =>
      w.events.some((e) => (e.data as { response?: { text?: string } })?.response?.text === 'new three'),
    );
    w.close();
    const seen = w.events
      .filter((e) => e.event === 'entry' || e.event === 'reset')
      .map((e) =>
        e.event === 'reset' ? '<reset>' : (e.data as { response: { text: string } }).response.text,
      );
    expect(seen).toEqual(['old one', 'old two', '<reset>', 'new one', 'new two', 'new three']);
  });
});
