import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { tool } from '../primitives/tool.js';
import { respond, ScriptedModel } from '../testing/scripted-model.js';
import { fileJournal } from './file-journal.js';
import type { JournalEntry } from './journal.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };

function modelEntry(key: string, text = 'hi'): JournalEntry {
  return {
    type: 'model',
    key,
    path: ['run'],
    model: 'm',
    response: { text, toolCalls: [], usage, finishReason: 'stop', modelId: 'm' },
  };
}

describe('fileJournal', () => {
  it('keeps one JSONL file per run, opening with a header, and reads it back', async () => {
    const journal = fileJournal(join(dir, 'nested', 'runs'));
    await journal.append('run-1', modelEntry('a#0'));
    await journal.append('run-1', modelEntry('b#0'));
    const text = await readFile(join(dir, 'nested', 'runs', 'run-1.jsonl'), 'utf8');
    const lines = text.split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ swarmJournal: 1, runId: 'run-1' });
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(await fileJournal(join(dir, 'nested', 'runs')).read('run-1')).toEqual([
      modelEntry('a#0'),
      modelEntry('b#0'),
    ]);
    expect(await journal.read('never-written')).toEqual([]);
  });

  it('writes the entries that arrive together in one batch, all of them, in order', async () => {
    const journal = fileJournal(dir);
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append('many', modelEntry(`k#${i}`))));
    const entries = await journal.read('many');
    expect(entries.map((e) => e.key)).toEqual(Array.from({ length: 50 }, (_, i) => `k#${i}`));
  });

  it('ignores a last line torn by a crash, and cuts it off before appending', async () => {
    const journal = fileJournal(dir);
    await journal.append('torn', modelEntry('a#0'));
    const file = join(dir, 'torn.jsonl');
    const whole = JSON.stringify(modelEntry('b#0'));
    await appendFile(file, whole.slice(0, 40));
    const reader = fileJournal(dir);
    expect(await reader.read('torn')).toEqual([modelEntry('a#0')]);
    await reader.append('torn', modelEntry('c#0'));
    expect(await fileJournal(dir).read('torn')).toEqual([modelEntry('a#0'), modelEntry('c#0')]);
    // A whole entry whose newline was not written is torn too: it was never acknowledged.
    await appendFile(file, whole);
    expect((await fileJournal(dir).read('torn')).map((e) => e.key)).toEqual(['a#0', 'c#0']);
  });

  it('starts afresh from a header torn by a crash', async () => {
    await writeFile(join(dir, 'early.jsonl'), '{"swarmJou');
    const journal = fileJournal(dir);
    expect(await journal.read('early')).toEqual([]);
    await journal.append('early', modelEntry('a#0'));
    expect(await fileJournal(dir).read('early')).toEqual([modelEntry('a#0')]);
  });

  it('refuses a file that is not a journal, a bad line before the last, and a newer format, naming file and line', async () => {
    const journal = fileJournal(dir);
    await writeFile(join(dir, 'notes.jsonl'), 'shopping list\nmilk\n');
    await expect(journal.read('notes')).rejects.toThrow(`${dir}/notes.jsonl is not a swarm journal`);
    await expect(journal.append('notes', modelEntry('a#0'))).rejects.toThrow(/is not a swarm journal/);
    expect(await readFile(join(dir, 'notes.jsonl'), 'utf8')).toBe('shopping list\nmilk\n');

    const header = JSON.stringify({ swarmJournal: 1, runId: 'bad' });
    await writeFile(join(dir, 'bad.jsonl'), `${header}\n{oops\n${JSON.stringify(modelEntry('a#0'))}\n`);
    await expect(journal.read('bad')).rejects.toMatchObject({
      code: 'CONFIG',
      message: `journal file ${dir}/bad.jsonl line 2 is not valid JSON; the file was changed by something other than swarm.`,
    });
    await writeFile(
      join(dir, 'odd.jsonl'),
      `${JSON.stringify({ swarmJournal: 1, runId: 'odd' })}\n{"type":"model"}\n`,
    );
    await expect(journal.read('odd')).rejects.toThrow(
      `journal file ${dir}/odd.jsonl line 2 is not a journal entry`,
    );
    await writeFile(join(dir, 'new.jsonl'), `${JSON.stringify({ swarmJournal: 2, runId: 'new' })}\n`);
    await expect(journal.read('new')).rejects.toThrow(
      /is a journal of format 2; this @swarm\/core reads format 1/,
    );
    await writeFile(join(dir, 'moved.jsonl'), `${JSON.stringify({ swarmJournal: 1, runId: 'other' })}\n`);
    await expect(journal.read('moved')).rejects.toThrow(/holds run "other", not "moved"/);
  });

  it('rejects a run id that names a path and an empty dir', async () => {
    const journal = fileJournal(dir);
    await expect(journal.read('../x')).rejects.toThrow(/runId must be/);
    await expect(journal.append('a/b', modelEntry('a#0'))).rejects.toThrow(/runId must be/);
    expect(() => fileJournal('')).toThrow(/fileJournal: dir must be a non-empty path/);
  });

  it('refuses to run an agent on a file that is not ours, before the model is called', async () => {
    await writeFile(join(dir, 'r.jsonl'), 'not a journal\n');
    const model = new ScriptedModel([], { fallback: respond(() => 'x') });
    const agent = new Agent({
      name: 'a',
      model,
      tools: [tool({ name: 't', description: 'd', parameters: z.object({}), execute: () => 'y' })],
    });
    await expect(agent.run('hi', { journal: fileJournal(dir), runId: 'r' })).rejects.toThrow(
      /is not a swarm journal/,
    );
    expect(model.calls).toHaveLength(0);
  });
});
