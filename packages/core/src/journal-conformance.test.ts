import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { fileJournal } from './kernel/file-journal.js';
import { memoryJournal } from './kernel/journal.js';
import { journalConformanceTests } from './testing/vitest.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

journalConformanceTests('memoryJournal', {
  create: () => memoryJournal(),
  atomicAppends: 'an append pushes one whole JSON text onto an array',
  noHeader: 'a memory journal never outlives the process that wrote it',
});

const dirOf = new WeakMap<object, string>();
journalConformanceTests('fileJournal', {
  create: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'swarm-conformance-'));
    dirs.push(dir);
    const journal = fileJournal(dir);
    dirOf.set(journal, dir);
    return journal;
  },
  tear: async (journal, runId) => {
    const dir = dirOf.get(journal)!;
    await appendFile(join(dir, `${runId}.jsonl`), '{"type":"model","key":"cut');
    return fileJournal(dir);
  },
  setFormatVersion: async (journal, runId, version) => {
    const file = join(dirOf.get(journal)!, `${runId}.jsonl`);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[0] = JSON.stringify({ swarmJournal: version, runId });
    await writeFile(file, lines.join('\n'));
  },
});
