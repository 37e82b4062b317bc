import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataset, loadDataset, parseJsonl } from './dataset.js';
import { DatasetError } from './errors.js';

describe('datasets', () => {
  it('parses JSONL, skipping blank and comment lines', () => {
    const d = parseJsonl(
      '{"input":"a","expected":"b"}\n\n// note\n{"input":{"x":1},"metadata":{"id":"2"}}\n',
      'd.jsonl',
    );
    expect(d.items).toEqual([
      { input: 'a', expected: 'b' },
      { input: { x: 1 }, metadata: { id: '2' } },
    ]);
  });

  it('names file:line for a line that is not JSON', () => {
    expect(() => parseJsonl('{"input":"a"}\n{oops\n', 'tasks.jsonl')).toThrow(/^tasks\.jsonl:2: not JSON/);
  });

  it('names file:line for an item without input, an unknown field, bad metadata or bad attachments', () => {
    expect(() => parseJsonl('\n{"expected":"x"}', 'f.jsonl')).toThrow('f.jsonl:2: the item has no "input".');
    expect(() => parseJsonl('{"input":"a","answer":"x"}', 'f.jsonl')).toThrow(
      /f\.jsonl:1: unknown field "answer"/,
    );
    expect(() => parseJsonl('{"input":"a","metadata":3}', 'f.jsonl')).toThrow(
      /f\.jsonl:1: "metadata" must be an object/,
    );
    expect(() => parseJsonl('{"input":"a","attachments":[{"type":"nope"}]}', 'f.jsonl')).toThrow(
      /^f\.jsonl:1: attachments\[0\]/,
    );
    expect(() => parseJsonl('[1]', 'f.jsonl')).toThrow(DatasetError);
  });

  it('an empty dataset is an error; arrays are checked by index', () => {
    expect(() => parseJsonl('\n', 'e.jsonl')).toThrow('e.jsonl: the dataset has no items.');
    expect(() => dataset([{ input: 'a' }, { expected: 1 } as never], 'mine')).toThrow(
      'mine[1]: the item has no "input".',
    );
    expect(dataset([{ input: 'a' }]).items).toHaveLength(1);
  });

  it('loads a file and reports a missing one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evals-'));
    const file = join(dir, 'd.jsonl');
    await writeFile(file, '{"input":"q","expected":"a"}\n');
    expect((await loadDataset(file)).items).toEqual([{ input: 'q', expected: 'a' }]);
    await expect(loadDataset(join(dir, 'none.jsonl'))).rejects.toThrow(/none\.jsonl: cannot read the file/);
  });
});
