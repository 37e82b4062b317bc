import {
  ConfigError,
  describeZodError,
  nodeBuiltin,
  SessionConflictError,
  writeFileAtomic,
} from '@swarm/core';
import {
  assertNoLostTurns,
  type SessionState,
  type SessionStore,
  sessionStateSchema,
} from './session-store.js';

/** Options of `FileSessionStore`. */
export interface FileSessionStoreOptions {
  /** How long a save waits for another writer's lock on the same session (default 10 s). */
  lockTimeoutMs?: number;
  /** A lock older than this is a crashed writer's and is broken (default 30 s). */
  staleLockMs?: number;
}

/**
 * Keeps each session as a JSON file in `dir`, written atomically, so that a conversation survives a
 * restart of the process and a crash mid-write never leaves a truncated session.
 *
 * Saves are conditional, across processes too: each file carries a `version`, and a save takes a
 * lock file beside the session (`<file>.lock`, created exclusively), re-reads the stored session,
 * and writes only if nothing another writer saved since would be lost; otherwise it throws
 * `SessionConflictError` and leaves the file as it was.
 *
 * Needs Node.js (its file system): constructed in a browser or an edge runtime it throws a
 * `ConfigError`; use `InMemorySessionStore` or a `SessionStore` of your own there.
 */
export class FileSessionStore implements SessionStore {
  readonly dir: string;
  readonly #lockTimeoutMs: number;
  readonly #staleLockMs: number;
  readonly #fs: typeof import('node:fs/promises');
  readonly #path: typeof import('node:path');
  readonly #crypto: typeof import('node:crypto');

  constructor(dir: string, options: FileSessionStoreOptions = {}) {
    if (typeof dir !== 'string' || dir.trim() === '') {
      throw new ConfigError('FileSessionStore: dir must be a non-empty path.');
    }
    for (const name of ['lockTimeoutMs', 'staleLockMs'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new ConfigError(
          `FileSessionStore: ${name} must be a positive number of milliseconds, got ${value}.`,
        );
      }
    }
    const instead =
      'use InMemorySessionStore, or a SessionStore of your own over the storage the runtime has.';
    this.#fs = nodeBuiltin('node:fs/promises', 'FileSessionStore', instead);
    this.#path = nodeBuiltin('node:path', 'FileSessionStore', instead);
    this.#crypto = nodeBuiltin('node:crypto', 'FileSessionStore', instead);
    this.dir = dir;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
    this.#staleLockMs = options.staleLockMs ?? 30_000;
  }

  async get(sessionId: string): Promise<SessionState | undefined> {
    return this.#read(this.pathOf(sessionId));
  }

  async set(sessionId: string, state: SessionState): Promise<void> {
    const path = this.pathOf(sessionId);
    await this.#fs.mkdir(this.dir, { recursive: true });
    await this.#locked(sessionId, `${path}.lock`, async () => {
      const stored = await this.#read(path);
      assertNoLostTurns(sessionId, stored, state);
      const saved: SessionState = { ...state, version: (stored?.version ?? 0) + 1 };
      await writeFileAtomic(path, JSON.stringify(saved, null, 2));
    });
  }

  /**
   * The file of a session: its id made safe as a file name, or, when that is longer than 120
   * characters, `~` and the id's SHA-256. No encoded id contains `~`, so no short id can name the
   * file of a long one.
   */
  pathOf(sessionId: string): string {
    const safe = encodeURIComponent(sessionId).replace(
      /[.!~*'()]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
    const name =
      safe.length <= 120 ? safe : `~${this.#crypto.createHash('sha256').update(sessionId).digest('hex')}`;
    return this.#path.join(this.dir, `${name}.json`);
  }

  async #read(path: string): Promise<SessionState | undefined> {
    let text: string;
    try {
      text = await this.#fs.readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const parsed = sessionStateSchema.safeParse(parseJson(text, path));
    if (!parsed.success) {
      throw new ConfigError(
        `FileSessionStore: ${path} is not a saved session (${describeZodError(parsed.error)}).`,
        { cause: parsed.error },
      );
    }
    return parsed.data;
  }

  // Runs `work` holding the session's lock file: created with O_EXCL, holding the writer's pid,
  // removed when `work` ends. A lock whose writer is gone (or older than staleLockMs) is broken.
  async #locked(sessionId: string, lock: string, work: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        const handle = await this.#fs.open(lock, 'wx');
        try {
          await handle.writeFile(String(process.pid));
        } finally {
          await handle.close();
        }
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (await this.#isStale(lock)) {
        await this.#fs.rm(lock, { force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        throw new SessionConflictError(
          sessionId,
          `Session ${JSON.stringify(sessionId)} stayed locked by another writer for ${this.#lockTimeoutMs} ms (${lock}); nothing was saved.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    try {
      await work();
    } finally {
      await this.#fs.rm(lock, { force: true });
    }
  }

  async #isStale(lock: string): Promise<boolean> {
    const [text, info] = await Promise.all([
      this.#fs.readFile(lock, 'utf8').catch(() => undefined),
      this.#fs.stat(lock).catch(() => undefined),
    ]);
    if (!info) return false; // released meanwhile: try again
    if (Date.now() - info.mtimeMs > this.#staleLockMs) return true;
    const pid = Number(text);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isRunning(pid);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`FileSessionStore: ${path} is not a saved session (not valid JSON).`, {
      cause: error,
    });
  }
}
