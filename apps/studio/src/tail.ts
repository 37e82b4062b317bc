import { type FileHandle, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type JournalEntry, parseJournalEntry } from '@swarm/core';

/**
 * A journal entry as the studio shows it: the entry, and the fields a journal line may carry beyond
 * the ones core checks (`startedAt`, `endedAt`, `request` of a model call), kept when present.
 */
export type StudioEntry = JournalEntry & { startedAt?: string; endedAt?: string; request?: unknown };

/** What a tail hands its listeners: new entries, or a start over (the file was replaced or cut). */
export type TailChange = { type: 'entries'; entries: readonly StudioEntry[] } | { type: 'reset' };

/**
 * What the studio knows of one run's journal file, read incrementally: only the bytes appended since
 * the last read are read, a last line without its newline waits for it, and a file replaced or
 * truncated is read again from its start. One tail per run file, shared by every reader of the run.
 */
export class JournalTail {
  readonly file: string;
  readonly #runId: string;
  #offset = 0;
  #partial: Buffer = Buffer.alloc(0);
  #entries: StudioEntry[] = [];
  #headerSeen = false;
  /** Whole lines read (the header included). */
  #lines = 0;
  #ino: number | undefined;
  #error: string | undefined;
  #mtimeMs = 0;
  #reading: Promise<void> | undefined;
  readonly #listeners = new Set<(change: TailChange) => void>();
  #timer: NodeJS.Timeout | undefined;
  readonly #intervalMs: number;

  constructor(dir: string, runId: string, intervalMs = 500) {
    this.file = join(dir, `${runId}.jsonl`);
    this.#runId = runId;
    this.#intervalMs = intervalMs;
  }

  /** Every entry read so far (all whole lines of the file, as of the last read). */
  get entries(): readonly StudioEntry[] {
    return this.#entries;
  }

  /** Why the file does not read as this run's journal (a bad line or header), or undefined. */
  get error(): string | undefined {
    return this.#error;
  }

  /** When the file last changed (ms since the epoch), as of the last read; 0 when there is none. */
  get mtimeMs(): number {
    return this.#mtimeMs;
  }

  /** Reads what was appended since the last read (one read at a time; callers share it). */
  read(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  /**
   * Calls `listener` with every change from now on, reading the file every interval while anyone
   * listens. Returns the function that stops listening.
   */
  subscribe(listener: (change: TailChange) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#timer) this.#schedule();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.read()
        .catch((error: unknown) => {
          // The file could not be read at all (permissions, a directory in its place): said as its error.
          this.#error = error instanceof Error ? error.message : String(error);
        })
        .finally(() => {
          if (this.#listeners.size > 0) this.#schedule();
        });
    }, this.#intervalMs);
    this.#timer.unref();
  }

  #emit(change: TailChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  #reset(): void {
    const had = this.#offset > 0 || this.#entries.length > 0;
    this.#offset = 0;
    this.#partial = Buffer.alloc(0);
    this.#entries = [];
    this.#headerSeen = false;
    this.#lines = 0;
    this.#error = undefined;
    this.#mtimeMs = 0;
    if (had) this.#emit({ type: 'reset' });
  }

  async #read(): Promise<void> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#ino = undefined;
      this.#reset();
      return;
    }
    // Replaced (another file under the name) or cut shorter than what was read: read it from its start.
    if ((this.#ino !== undefined && info.ino !== this.#ino) || info.size < this.#offset) this.#reset();
    this.#ino = info.ino;
    this.#mtimeMs = info.mtimeMs;
    if (info.size === this.#offset || this.#error !== undefined) return;
    let handle: FileHandle | undefined;
    let bytes: Buffer;
    try {
      handle = await open(this.file, 'r');
      const length = info.size - this.#offset;
      bytes = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(bytes, got, length - got, this.#offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      bytes = bytes.subarray(0, got);
    } finally {
      await handle?.close();
    }
    this.#offset += bytes.length;
    // Split on the newline byte: it never occurs inside a multi-byte UTF-8 character, so a character
    // cut between two reads stays whole in the part kept for the next one.
    let text = this.#partial.length > 0 ? Buffer.concat([this.#partial, bytes]) : bytes;
    const added: StudioEntry[] = [];
    for (let end = text.indexOf(0x0a); end >= 0; end = text.indexOf(0x0a)) {
      const line = text.subarray(0, end).toString('utf8');
      text = text.subarray(end + 1);
      const entry = this.#line(line);
      if (this.#error !== undefined) break;
      if (entry) added.push(entry);
    }
    this.#partial = Buffer.from(text);
    if (added.length > 0) {
      this.#entries.push(...added);
      this.#emit({ type: 'entries', entries: added });
    }
  }

  // One whole line: the header (checked), or an entry; a bad one sets the error and stops the tail.
  #line(line: string): StudioEntry | undefined {
    this.#lines += 1;
    const where = `journal file ${this.file} line ${this.#lines}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#error = `${where} is not valid JSON; the file was changed by something other than swarm.`;
      return undefined;
    }
    if (!this.#headerSeen) {
      const header = value as { swarmJournal?: unknown; runId?: unknown } | null;
      if (typeof header !== 'object' || header === null || header.swarmJournal !== 1) {
        this.#error = `${this.file} is not a swarm journal of format 1: its first line is not a journal header.`;
      } else if (header.runId !== this.#runId) {
        this.#error = `${this.file} holds run ${JSON.stringify(header.runId)}, not ${JSON.stringify(this.#runId)}.`;
      }
      this.#headerSeen = true;
      return undefined;
    }
    try {
      return { ...parseJournalEntry(value, where), ...extras(value) } as StudioEntry;
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  }
}

// The optional fields of a model call a journal line may hold beyond what core checks.
function extras(value: unknown): Partial<Pick<StudioEntry, 'startedAt' | 'endedAt' | 'request'>> {
  const v = value as Record<string, unknown>;
  if (v.type !== 'model') return {};
  return {
    ...(typeof v.startedAt === 'string' && { startedAt: v.startedAt }),
    ...(typeof v.endedAt === 'string' && { endedAt: v.endedAt }),
    ...(typeof v.request === 'object' && v.request !== null && { request: v.request }),
  };
}

/** The tails of a studio's runs, one per journal file. */
export class Tails {
  readonly #tails = new Map<string, JournalTail>();
  readonly #intervalMs: number;

  constructor(intervalMs = 500) {
    this.#intervalMs = intervalMs;
  }

  /** The tail of run `id` of `dir` (made on first use). */
  of(dir: string, id: string): JournalTail {
    const key = `${dir}\u0000${id}`;
    let tail = this.#tails.get(key);
    if (!tail) {
      tail = new JournalTail(dir, id, this.#intervalMs);
      this.#tails.set(key, tail);
    }
    return tail;
  }
}
