import { ConfigError, JournalWriteError, type LeaseHolder, RunLockedError } from './errors.js';
import {
  checkedLine,
  checksItsEntries,
  type Journal,
  type JournalEntry,
  type JournalLease,
  parseJournalEntry,
  staleLeaseMessage,
  validateRunId,
} from './journal.js';
import { optionalNodeBuiltin } from './node-builtin.js';

type Fs = typeof import('node:fs/promises');
type SyncWrite = (fd: number, bytes: Uint8Array, offset: number, length: number) => number;

/** Options of `fileJournal`. */
export interface FileJournalOptions {
  /**
   * How long a lease not renewed is still held (default 300,000 ms = 5 minutes). A run renews its
   * lease as it appends; a lease whose holder died on this host is stale at once, one of a holder
   * on another host only after this long without a renewal.
   */
  staleAfterMs?: number;
  /**
   * When an append resolves (default `'process'`). `'process'`: once the entry is written to the
   * file whole, so it survives this process being killed (the OS holds it); the flush to disk
   * (`fdatasync`) follows at once in the background, and one that fails fails the run's next append.
   * `'disk'`: once it is flushed to disk too, so it survives a power loss; a run then waits for one
   * disk flush per call (about 1 to 5 ms each on common disks; appends made together share one).
   */
  durability?: 'process' | 'disk';
  /**
   * The file system to use (default `node:fs/promises`), an object of the same shape: for tests
   * that inject faults. Typed loosely so that core's public types need no `@types/node`.
   */
  fs?: object;
}

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
 * header line. Each append is written whole before the run goes on (and flushed to disk with
 * `fdatasync`, waited for with `durability: 'disk'`), and appends that arrive together share one
 * write and one flush; a short or failed write is a `JournalWriteError` and the part written is
 * cut off again. A last line torn by a crash (no
 * newline) is ignored on read and cut off before the next append; any other bad line, or a file
 * that is not a journal, is a ConfigError naming the file and the line.
 *
 * Fenced: a run being executed holds a lease, the file `<dir>/<runId>.lock.<token>` created
 * exclusively and holding the holder's pid, host, token and time. Another process is refused with
 * `RunLockedError` until the holder ends the run, dies (on this host), or goes `staleAfterMs`
 * without a renewal; once another has taken the run, the old holder's appends are refused. Within
 * one process a new run context takes the run and fences off the one that had it.
 * Node only (it loads `node:fs` when called): in a browser it is a ConfigError.
 */
export function fileJournal(dir: string, options: FileJournalOptions = {}): Journal {
  if (typeof dir !== 'string' || dir.trim() === '') {
    throw new ConfigError(`fileJournal: dir must be a non-empty path (got ${JSON.stringify(dir)}).`);
  }
  const staleAfterMs = options.staleAfterMs ?? 300_000;
  if (!Number.isInteger(staleAfterMs) || staleAfterMs < 1) {
    throw new ConfigError(`fileJournal: staleAfterMs must be an integer >= 1 (got ${staleAfterMs}).`);
  }
  const durability = options.durability ?? 'process';
  if (durability !== 'process' && durability !== 'disk') {
    throw new ConfigError(
      `fileJournal: durability must be 'process' or 'disk' (got ${JSON.stringify(durability)}).`,
    );
  }
  const fs = (options.fs as Fs | undefined) ?? nodeFs();
  // With the real file system a line is written by one write(2) on the event loop (a few
  // microseconds into the page cache), not a hop through the thread pool; an injected one is awaited.
  const sync = options.fs ? undefined : optionalNodeBuiltin<typeof import('node:fs')>('node:fs');
  // A background flush that failed, by run: that run's next append fails with it.
  const flushFailures = new Map<string, unknown>();
  // The open file of each run being written (closed once idle, and when its lease is given back).
  const handles = new Map<string, OpenFile>();
  let madeBase = false;
  const base = dir.replace(/[\\/]+$/, '') || dir;
  const fileOf = (runId: string) => `${base}/${validateRunId(runId)}.jsonl`;
  const states = new Map<string, FileState>();
  const writers = new Map<string, BatchWriter>();
  const leases = new FileLeases(fs, base, staleAfterMs, sync);

  const load = async (runId: string) => {
    const file = fileOf(runId);
    const { entries, state } = await readJournalFile(fs, file, runId, sync?.existsSync);
    // Once this process appends to a run, its writer keeps the state; a read must not replace it.
    if (!writers.has(runId)) states.set(runId, state);
    return entries;
  };

  return checksItsEntries({
    read: load,
    async append(runId, entry, lease) {
      const file = fileOf(runId);
      const line = `${checkedLine(entry, `an append to journal file ${file}`)}\n`;
      let writer = writers.get(runId);
      if (!writer) {
        writer = new BatchWriter(async (lines, batchLeases) => {
          const failure = flushFailures.get(runId);
          if (failure !== undefined) {
            flushFailures.delete(runId);
            throw failure;
          }
          for (const held of batchLeases) await leases.check(held);
          let state = states.get(runId);
          if (!state) {
            state = (await readJournalFile(fs, file, runId)).state;
          }
          // Unknown until read again: a write that failed may have left part of a line.
          states.delete(runId);
          if (state.torn) await fs.truncate(file, state.size);
          const created = state.size === 0;
          if (created && !madeBase) {
            await fs.mkdir(base, { recursive: true });
            madeBase = true;
          }
          const text = `${created ? `${JSON.stringify({ swarmJournal: formatVersion, runId })}\n` : ''}${lines.join('')}`;
          let open = handles.get(runId);
          if (open === undefined) {
            open = new OpenFile(
              fs,
              await fs.open(file, 'a'),
              runId,
              file,
              base,
              (error) => flushFailures.set(runId, error),
              () => {
                if (handles.get(runId) === open) handles.delete(runId);
              },
              sync?.writeSync,
            );
            handles.set(runId, open);
          }
          try {
            await open.write(encoder.encode(text), created);
          } catch (error) {
            await fs.truncate(file, state.size).catch(() => undefined);
            handles.delete(runId);
            await open.close();
            throw error;
          }
          states.set(runId, { size: state.size + byteLength(text), torn: false });
          if (durability === 'disk') {
            try {
              await open.flushed();
            } finally {
              // Reported here, to this append: not again to the next.
              flushFailures.delete(runId);
            }
          }
        });
        writers.set(runId, writer);
      }
      return writer.write(line, lease);
    },
    acquireLease: (runId) => leases.acquire(validateRunId(runId)),
    releaseLease: (lease) => {
      leases.release(lease);
      handles.get(lease.runId)?.closeWhenFlushed();
    },
  });
}

/**
 * A run's journal file held open while it is written: appends go straight to it, and one flush to
 * disk at a time runs behind them (appends made while one runs are covered by the next: at most
 * one flush waits). Closed a second after its last flush, or when its run gives its lease back.
 */
class OpenFile {
  readonly #fs: Fs;
  readonly #writeSync: SyncWrite | undefined;
  readonly #handle: Awaited<ReturnType<Fs['open']>>;
  readonly #runId: string;
  readonly #file: string;
  readonly #dir: string;
  readonly #failed: (error: unknown) => void;
  readonly #closed: () => void;
  #flushing: Promise<void> | undefined;
  #dirty = false;
  #newFile = false;
  #writing = false;
  #closing: Promise<void> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #failure: unknown;

  constructor(
    fs: Fs,
    handle: Awaited<ReturnType<Fs['open']>>,
    runId: string,
    file: string,
    dir: string,
    failed: (error: unknown) => void,
    closed: () => void,
    writeSync: SyncWrite | undefined,
  ) {
    this.#fs = fs;
    this.#writeSync = writeSync;
    this.#handle = handle;
    this.#runId = runId;
    this.#file = file;
    this.#dir = dir;
    this.#failed = failed;
    this.#closed = closed;
  }

  /** Writes the bytes whole (a JournalWriteError otherwise), then starts or queues a flush. */
  async write(bytes: Uint8Array, newFile: boolean): Promise<void> {
    clearTimeout(this.#idle);
    this.#writing = true;
    try {
      await writeWhole(this.#handle, bytes, this.#runId, this.#file, this.#writeSync);
    } finally {
      this.#writing = false;
    }
    if (newFile) this.#newFile = true;
    this.#dirty = true;
    this.#flushing ??= this.#flush();
  }

  /** Resolves once everything written so far is on disk; rejects with the flush's JournalWriteError. */
  async flushed(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        const newFile = this.#newFile;
        this.#newFile = false;
        try {
          await this.#handle.datasync();
          if (newFile) await syncDirectory(this.#fs, this.#dir);
        } catch (error) {
          // Never thrown here (nobody waits on a background flush): the next append, or `flushed`, reports it.
          const failure = new JournalWriteError(
            this.#runId,
            `Run ${this.#runId}: flushing journal file ${this.#file} to disk failed (${(error as Error).message}).`,
            { cause: error },
          );
          this.#failure = failure;
          this.#failed(failure);
          return;
        }
      }
    } finally {
      this.#flushing = undefined;
      if (!this.#closing) {
        this.#idle = setTimeout(() => {
          if (!this.#writing && !this.#flushing) void this.close();
        }, 1_000);
        this.#idle.unref?.();
      }
    }
  }

  /** Closes the file once its flush is done (its run ended). */
  closeWhenFlushed(): void {
    void this.flushed()
      .catch(() => undefined)
      .then(() => (this.#writing || this.#flushing ? undefined : this.close()));
  }

  close(): Promise<void> {
    clearTimeout(this.#idle);
    this.#closing ??= (async () => {
      this.#closed();
      await this.#handle.close().catch((error: unknown) => this.#failed(error));
    })();
    return this.#closing;
  }
}

/** What a lease file holds. */
interface LeaseFile {
  swarmLease: 1;
  runId: string;
  token: number;
  pid: number;
  host: string;
  /** When it was taken or last renewed. */
  at: string;
  released?: true;
}

/**
 * The leases of one journal directory: `<runId>.lock.<token>`, one file per holder the run had, each
 * created exclusively (and kept: tokens stay dense). The newest is the run's; a holder is fenced
 * off once a newer file exists.
 */
class FileLeases {
  readonly #fs: Fs;
  readonly #base: string;
  readonly #staleAfterMs: number;
  readonly #host: string;
  // When each lease this process holds was last written (renewals are spaced by a third of staleness).
  readonly #renewed = new Map<string, number>();
  // The newest token this process saw of each run (where the look for a newer one starts).
  readonly #newest = new Map<string, number>();
  #made: Promise<void> | undefined;

  readonly #exists: ((path: string) => boolean) | undefined;
  readonly #sync: typeof import('node:fs') | undefined;

  constructor(fs: Fs, base: string, staleAfterMs: number, sync: typeof import('node:fs') | undefined) {
    this.#sync = sync;
    this.#exists = sync?.existsSync;
    this.#fs = fs;
    this.#base = base;
    this.#staleAfterMs = staleAfterMs;
    this.#host = optionalNodeBuiltin<typeof import('node:os')>('node:os')?.hostname() ?? 'unknown';
  }

  #file(runId: string, token: number): string {
    return `${this.#base}/${runId}.lock.${token}`;
  }

  async acquire(runId: string): Promise<JournalLease> {
    this.#made ??= this.#fs.mkdir(this.#base, { recursive: true }).then(() => undefined);
    await this.#made;
    // Tokens are dense (every holder's file stays): the newest is the last that exists.
    let newest = this.#newest.get(runId) ?? 0;
    let current: LeaseFile | undefined;
    for (;;) {
      const next = await this.#read(runId, newest + 1);
      if (next === undefined) break;
      newest += 1;
      current = next;
    }
    if (current === undefined && newest > 0) current = await this.#read(runId, newest);
    if (current !== undefined && !this.#stale(current)) throw new RunLockedError(runId, holderOf(current));
    // Its holder died: the temp files of lease writers killed before they linked theirs in go too.
    if (current !== undefined && !current.released) await this.#removeDeadTemps(runId);
    const token = newest + 1;
    const now = new Date().toISOString();
    const content: LeaseFile = { swarmLease: 1, runId, token, pid: process.pid, host: this.#host, at: now };
    const target = this.#file(runId, token);
    // Written whole beside it, then linked into place: the link is the exclusive create (it fails
    // when the file exists, as O_EXCL does), and a lease file is never seen half written.
    const temp = `${this.#base}/.${runId}.lock.${token}.${process.pid}.${Date.now().toString(36)}.tmp`;
    const text = `${JSON.stringify(content)}\n`;
    // Not flushed to disk: a lease matters only while its holder lives. With the real file system,
    // in a few system calls on the event loop (each microseconds), not hops through the thread pool.
    if (this.#sync) {
      this.#sync.writeFileSync(temp, text, { flag: 'wx' });
    } else {
      const handle = await this.#fs.open(temp, 'wx');
      try {
        await writeWhole(handle, encoder.encode(text), runId, temp);
      } finally {
        await handle.close();
      }
    }
    try {
      if (this.#sync) this.#sync.linkSync(temp, target);
      else await this.#fs.link(temp, target);
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') {
        // Another process took the run between our look and our create: it holds it now.
        const winner = await this.#read(runId, token);
        throw new RunLockedError(runId, winner && holderOf(winner));
      }
      throw error;
    } finally {
      if (this.#sync) this.#sync.rmSync(temp, { force: true });
      else await this.#fs.rm(temp, { force: true });
    }
    this.#renewed.set(target, Date.now());
    this.#newest.set(runId, token);
    return { runId, token, holder: holderOf(content) };
  }

  async #removeDeadTemps(runId: string): Promise<void> {
    const prefix = `.${runId}.lock.`;
    for (const name of await this.#fs.readdir(this.#base)) {
      const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.split('.').at(-3)) : 0;
      if (pid > 0 && pid !== process.pid && !pidAlive(pid))
        await this.#fs.rm(`${this.#base}/${name}`, { force: true });
    }
  }

  /** Throws RunLockedError when `lease` is no longer the run's newest; renews it when due. */
  async check(lease: JournalLease): Promise<void> {
    // One stat, on the event loop where it can: no newer holder is the common case.
    const newer = this.#exists ? this.#exists(this.#file(lease.runId, lease.token + 1)) : true;
    const next = newer ? await this.#read(lease.runId, lease.token + 1, true) : undefined;
    if (next !== undefined) {
      throw new RunLockedError(
        lease.runId,
        holderOf(next),
        staleLeaseMessage(lease.runId, lease, holderOf(next)),
      );
    }
    const file = this.#file(lease.runId, lease.token);
    const last = this.#renewed.get(file) ?? 0;
    if (Date.now() - last >= this.#staleAfterMs / 3) {
      await this.#rewrite(lease, false);
      this.#renewed.set(file, Date.now());
    }
  }

  /** Marks the lease given back, so the next resumer takes the run at once. */
  release(lease: JournalLease): void {
    const fs = optionalNodeBuiltin<typeof import('node:fs')>('node:fs');
    const file = this.#file(lease.runId, lease.token);
    this.#renewed.delete(file);
    if (!fs) return;
    // Synchronous, so that a run resumed right after this one ended in the same process finds it free.
    if (fs.existsSync(this.#file(lease.runId, lease.token + 1))) return;
    const content: LeaseFile = { ...leaseContent(lease, this.#host), released: true };
    const temp = `${this.#base}/.${lease.runId}.lock.${lease.token}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(content)}\n`);
    fs.renameSync(temp, file);
  }

  async #rewrite(lease: JournalLease, released: boolean): Promise<void> {
    const content: LeaseFile = { ...leaseContent(lease, this.#host), ...(released && { released: true }) };
    const temp = `${this.#base}/.${lease.runId}.lock.${lease.token}.${process.pid}.tmp`;
    await this.#fs.writeFile(temp, `${JSON.stringify(content)}\n`);
    await this.#fs.rename(temp, this.#file(lease.runId, lease.token));
  }

  // The lease file of `token`; undefined when there is none. A file that cannot be read as a lease
  // (cut by a crash as it was created) counts as a holder unknown, stale by its time.
  async #read(runId: string, token: number, quick = false): Promise<LeaseFile | undefined> {
    const file = this.#file(runId, token);
    let text: string;
    try {
      text = this.#sync ? this.#sync.readFileSync(file, 'utf8') : await this.#fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as LeaseFile;
      if (parsed.swarmLease === 1 && parsed.token === token) return parsed;
    } catch {}
    if (quick) return { swarmLease: 1, runId, token, pid: 0, host: 'unknown', at: new Date(0).toISOString() };
    const stat = await this.#fs.stat(file);
    return { swarmLease: 1, runId, token, pid: 0, host: 'unknown', at: stat.mtime.toISOString() };
  }

  #stale(lease: LeaseFile): boolean {
    if (lease.released) return true;
    // Held by this very process (a run context that never ended its run): taking it fences that one off.
    if (lease.host === this.#host && lease.pid === process.pid) return true;
    if (lease.host === this.#host && lease.pid > 0 && !pidAlive(lease.pid)) return true;
    const at = Date.parse(lease.at);
    return !Number.isFinite(at) || Date.now() - at > this.#staleAfterMs;
  }
}

function leaseContent(lease: JournalLease, host: string): LeaseFile {
  return {
    swarmLease: 1,
    runId: lease.runId,
    token: lease.token,
    pid: lease.holder.pid ?? process.pid,
    host: lease.holder.host ?? host,
    at: new Date().toISOString(),
  };
}

function holderOf(lease: LeaseFile): LeaseHolder {
  return {
    id: lease.pid > 0 ? `pid ${lease.pid}@${lease.host}` : `an unknown process (lease file ${lease.token})`,
    ...(lease.pid > 0 && { pid: lease.pid, host: lease.host }),
    at: lease.at,
  };
}

// Whether a process of this host runs with `pid` (EPERM: it runs, as another user).
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
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
  exists?: (path: string) => boolean,
): Promise<{ entries: JournalEntry[]; state: FileState }> {
  // A new run (the common case) costs one stat on the event loop, not a failed read in the pool.
  if (exists && !exists(file)) return { entries: [], state: { size: 0, torn: false } };
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

// Writes every byte (a write may take fewer than asked); a write that fails or takes none is a JournalWriteError.
async function writeWhole(
  handle: Awaited<ReturnType<Fs['open']>>,
  bytes: Uint8Array,
  runId: string,
  file: string,
  writeSync?: SyncWrite,
): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    let written: number;
    try {
      written = writeSync
        ? writeSync(handle.fd, bytes, done, bytes.length - done)
        : (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
    } catch (error) {
      throw new JournalWriteError(
        runId,
        `Run ${runId}: writing journal file ${file} failed after ${done} of ${bytes.length} bytes (${(error as Error).message}); the run stops before using an answer it could not keep.`,
        { cause: error },
      );
    }
    if (!(written > 0)) {
      throw new JournalWriteError(
        runId,
        `Run ${runId}: journal file ${file} took ${done} of ${bytes.length} bytes and then none; the run stops before using an answer it could not keep.`,
      );
    }
    done += written;
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
  readonly #flush: (lines: string[], leases: JournalLease[]) => Promise<void>;
  #waiting: {
    line: string;
    lease: JournalLease | undefined;
    done: () => void;
    failed: (error: unknown) => void;
  }[] = [];
  #busy = false;

  constructor(flush: (lines: string[], leases: JournalLease[]) => Promise<void>) {
    this.#flush = flush;
  }

  write(line: string, lease: JournalLease | undefined): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ line, lease, done, failed });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      try {
        const leases = new Map<number, JournalLease>();
        for (const w of batch) if (w.lease) leases.set(w.lease.token, w.lease);
        await this.#flush(
          batch.map((w) => w.line),
          [...leases.values()],
        );
        for (const w of batch) w.done();
      } catch (error) {
        for (const w of batch) w.failed(error);
      }
    }
    this.#busy = false;
  }
}
