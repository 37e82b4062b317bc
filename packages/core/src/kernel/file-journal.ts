import { ConfigError } from './errors.js';
import { type Journal, type JournalEntry, parseJournalEntry, validateRunId } from './journal.js';

type Fs = typeof import('node:fs/promises');

/** The first line of every journal file: what it is, and the format version that wrote it. */
const formatVersion = 1;

/** What this process knows of one run's file: where its whole lines end, and whether more follows. */
interface FileState {
  /** Bytes of whole lines (the header included); 0 for no file or an empty one. */
  size: number;
  /** A torn last line (a write cut by a crash) follows `size`: cut it off before appending. */
  torn: boolean;
}

/**
 * A journal on disk: one append-only JSONL file per run, `<dir>/<runId>.jsonl`, opening with a
 * header line. Each append is written and flushed (`fdatasync`) before the run goes on, and appends
 * that arrive together share one write and one flush. A last line torn by a crash (no newline) is
 * ignored on read and cut off before the next append; any other bad line, or a file that is not a
 * journal, is a ConfigError naming the file and the line. One process writes a run at a time.
 * Node only (it loads `node:fs` when called): in a browser it is a ConfigError.
 */
export function fileJournal(dir: string): Journal {
  if (typeof dir !== 'string' || dir.trim() === '') {
    throw new ConfigError(`fileJournal: dir must be a non-empty path (got ${JSON.stringify(dir)}).`);
  }
  const fs = nodeFs();
  const base = dir.replace(/[\\/]+$/, '') || dir;
  const fileOf = (runId: string) => `${base}/${validateRunId(runId)}.jsonl`;
  const states = new Map<string, FileState>();
  const writers = new Map<string, BatchWriter>();

  const load = async (runId: string) => {
    const file = fileOf(runId);
    const { entries, state } = await readJournalFile(fs, file, runId);
    // Once this process appends to a run, its writer keeps the state; a read must not replace it.
    if (!writers.has(runId)) states.set(runId, state);
    return entries;
  };

  return {
    read: load,
    async append(runId, entry) {
      const line = `${JSON.stringify(entry)}\n`;
      let writer = writers.get(runId);
      if (!writer) {
        const file = fileOf(runId);
        writer = new BatchWriter(async (lines) => {
          let state = states.get(runId);
          if (!state) {
            state = (await readJournalFile(fs, file, runId)).state;
          }
          // Unknown until read again: a write that failed may have left part of a line.
          states.delete(runId);
          if (state.torn) await fs.truncate(file, state.size);
          const created = state.size === 0;
          if (created) await fs.mkdir(base, { recursive: true });
          const text = `${created ? `${JSON.stringify({ swarmJournal: formatVersion, runId })}\n` : ''}${lines.join('')}`;
          await appendFlushed(fs, file, text);
          if (created) await syncDirectory(fs, base);
          states.set(runId, { size: state.size + byteLength(text), torn: false });
        });
        writers.set(runId, writer);
      }
      return writer.write(line);
    },
  };
}

function nodeFs(): Fs {
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:fs/promises') as Fs | undefined;
  if (!fs) {
    throw new ConfigError(
      'fileJournal needs Node.js 22.3 or later (node:fs); in a browser or an edge runtime use memoryJournal() or a journal of your own.',
    );
  }
  return fs;
}

async function readJournalFile(
  fs: Fs,
  file: string,
  runId: string,
): Promise<{ entries: JournalEntry[]; state: FileState }> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT')
      return { entries: [], state: { size: 0, torn: false } };
    throw error;
  }
  // Whole lines end with a newline; what follows the last one was cut by a crash mid-write.
  const whole = bytes.lastIndexOf(0x0a) + 1;
  const state = { size: whole, torn: whole < bytes.length };
  const lines = new TextDecoder().decode(bytes.subarray(0, whole)).split('\n');
  lines.pop();
  if (lines.length === 0) return { entries: [], state };
  checkHeader(lines[0]!, file, runId);
  const entries = lines.slice(1).map((line, i) => {
    const where = `journal file ${file} line ${i + 2}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ConfigError(
        `${where} is not valid JSON; the file was changed by something other than swarm.`,
      );
    }
    return parseJournalEntry(value, where);
  });
  return { entries, state };
}

function checkHeader(line: string, file: string, runId: string): void {
  let header: { swarmJournal?: unknown; runId?: unknown } | undefined;
  try {
    header = JSON.parse(line) as typeof header;
  } catch {
    header = undefined;
  }
  if (typeof header !== 'object' || header === null || header.swarmJournal === undefined) {
    throw new ConfigError(`${file} is not a swarm journal: its first line is not a journal header.`);
  }
  if (header.swarmJournal !== formatVersion) {
    throw new ConfigError(
      `${file} is a journal of format ${JSON.stringify(header.swarmJournal)}; this @swarm/core reads format ${formatVersion}.`,
    );
  }
  if (header.runId !== runId) {
    throw new ConfigError(`${file} holds run ${JSON.stringify(header.runId)}, not ${JSON.stringify(runId)}.`);
  }
}

async function appendFlushed(fs: Fs, file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'a');
  try {
    await handle.write(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

// A new file's directory entry is durable only once the directory is synced. Some platforms
// (Windows) cannot open a directory for syncing; there it is up to the OS.
async function syncDirectory(fs: Fs, dir: string): Promise<void> {
  let handle: Awaited<ReturnType<Fs['open']>> | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Writes lines one batch at a time: lines that arrive while a batch is being written and flushed
 * go together in the next one (group commit), so concurrent branches share a flush.
 */
class BatchWriter {
  readonly #flush: (lines: string[]) => Promise<void>;
  #waiting: { line: string; done: () => void; failed: (error: unknown) => void }[] = [];
  #busy = false;

  constructor(flush: (lines: string[]) => Promise<void>) {
    this.#flush = flush;
  }

  write(line: string): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ line, done, failed });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        await this.#flush(batch.map((w) => w.line));
        for (const w of batch) w.done();
      } catch (error) {
        for (const w of batch) w.failed(error);
      }
    }
    this.#busy = false;
  }
}
