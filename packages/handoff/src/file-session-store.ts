import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, describeZodError, writeFileAtomic } from '@swarm/core';
import { type SessionState, type SessionStore, sessionStateSchema } from './session-store.js';

/**
 * Keeps each session as a JSON file in `dir`, written atomically, so that a conversation survives a
 * restart of the process and a crash mid-write never leaves a truncated session.
 */
export class FileSessionStore implements SessionStore {
  readonly dir: string;

  constructor(dir: string) {
    if (typeof dir !== 'string' || dir.trim() === '') {
      throw new ConfigError('FileSessionStore: dir must be a non-empty path.');
    }
    this.dir = dir;
  }

  async get(sessionId: string): Promise<SessionState | undefined> {
    const path = this.pathOf(sessionId);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
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

  async set(sessionId: string, state: SessionState): Promise<void> {
    await writeFileAtomic(this.pathOf(sessionId), JSON.stringify(state, null, 2));
  }

  /** The file of a session: its id made safe as a file name (hashed when long). */
  pathOf(sessionId: string): string {
    const safe = encodeURIComponent(sessionId).replace(
      /[.!~*'()]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
    const name = safe.length <= 120 ? safe : createHash('sha256').update(sessionId).digest('hex');
    return join(this.dir, `${name}.json`);
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
