import { type ContentPart, validateContentParts } from '@swarm/core';
import { DatasetError } from './errors.js';

/** One task of a dataset: what a candidate is given, and what a scorer compares its answer with. */
export interface EvalItem<I = unknown, E = unknown> {
  /** The task: a string is run as is, anything else as its JSON. */
  input: I;
  /** The expected answer, for scorers that compare with one. */
  expected?: E;
  /** Images and files that go with the task (given to the run as `attachments`). */
  attachments?: ContentPart[];
  /** Anything else (an id, a label); kept in results and the report. */
  metadata?: Record<string, unknown>;
}

/** A validated dataset: its items in order, and where it came from (for messages). */
export interface Dataset<I = unknown, E = unknown> {
  name: string;
  items: EvalItem<I, E>[];
}

const itemKeys = new Set(['input', 'expected', 'attachments', 'metadata']);

function checkItem(value: unknown, where: string): EvalItem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DatasetError(
      where,
      `an item must be an object { input, expected?, attachments?, metadata? } (got ${describe(value)}).`,
    );
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!itemKeys.has(key)) {
      throw new DatasetError(
        where,
        `unknown field "${key}" (an item has input, expected, attachments and metadata).`,
      );
    }
  }
  if (!('input' in record) || record.input === undefined || record.input === null) {
    throw new DatasetError(where, 'the item has no "input".');
  }
  if (record.attachments !== undefined) {
    try {
      validateContentParts(record.attachments, 'attachments');
    } catch (error) {
      throw new DatasetError(where, error instanceof Error ? error.message : String(error));
    }
  }
  const metadata = record.metadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  ) {
    throw new DatasetError(where, `"metadata" must be an object (got ${describe(metadata)}).`);
  }
  return record as unknown as EvalItem;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Checks an array of items and makes it a dataset. A bad item is a DatasetError naming it
 * (`<name>[3]: the item has no "input".`); an empty dataset is one too.
 */
export function dataset<I = unknown, E = unknown>(
  items: readonly EvalItem<I, E>[],
  name = 'dataset',
): Dataset<I, E> {
  if (!Array.isArray(items))
    throw new DatasetError(name, `a dataset must be an array of items (got ${describe(items)}).`);
  if (items.length === 0) throw new DatasetError(name, 'the dataset has no items.');
  return { name, items: items.map((item, index) => checkItem(item, `${name}[${index}]`) as EvalItem<I, E>) };
}

/**
 * Parses JSONL text, one item per line (blank lines and lines starting with `//` skipped). A line
 * that is not JSON or not an item is a DatasetError naming `file:line`.
 */
export function parseJsonl<I = unknown, E = unknown>(text: string, file = 'dataset.jsonl'): Dataset<I, E> {
  const items: EvalItem<I, E>[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    if (line === '' || line.startsWith('//')) continue;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DatasetError(where, `not JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    items.push(checkItem(value, where) as EvalItem<I, E>);
  }
  if (items.length === 0) throw new DatasetError(file, 'the dataset has no items.');
  return { name: file, items };
}

/** Reads a JSONL dataset file (Node only). A missing file or a bad line is a DatasetError. */
export async function loadDataset<I = unknown, E = unknown>(file: string): Promise<Dataset<I, E>> {
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:fs/promises') as typeof import('node:fs/promises') | undefined;
  if (!fs)
    throw new DatasetError(file, 'loadDataset needs Node.js (node:fs); use parseJsonl(text) elsewhere.');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new DatasetError(
      file,
      `cannot read the file (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return parseJsonl<I, E>(text, file);
}
