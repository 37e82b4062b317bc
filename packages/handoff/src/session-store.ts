import { SessionConflictError } from '@swarm/core';
import { z } from 'zod';
import { type HistoryItem, historyItemSchema } from './history.js';

/** What a swarm remembers of one conversation between runs: the thread, and who answered last. */
export interface SessionState {
  history: HistoryItem[];
  lastAgent: string;
  /**
   * How many saves the stored session has had, as `get` returns it. Passed back to `set`, it makes
   * the save conditional on there being no other save since (compare-and-set); left out, the save
   * is refused only when it would drop a turn another writer saved since.
   */
  version?: number;
}

/**
 * Where a swarm keeps its conversations, keyed by `sessionId`. Implement it to keep sessions in a
 * database; `InMemorySessionStore` and `FileSessionStore` ship with the package.
 *
 * A store must never lose a turn silently: `set` throws `SessionConflictError` (from `@swarm/core`)
 * when the stored session changed since the writer read it and the save would overwrite that
 * change. `assertNoLostTurns` implements the rule.
 */
export interface SessionStore {
  get(sessionId: string): Promise<SessionState | undefined>;
  set(sessionId: string, state: SessionState): Promise<void>;
}

/** Validates a stored session read back from outside the process. */
export const sessionStateSchema: z.ZodType<SessionState> = z.object({
  history: z.array(historyItemSchema),
  lastAgent: z.string(),
  version: z.number().int().nonnegative().optional(),
});

/**
 * Throws `SessionConflictError` when saving `next` over `stored` would lose something: with a
 * `version`, when the stored version is another; without one, when the stored history is not a
 * prefix of the new history (another writer appended a turn this writer never saw).
 */
export function assertNoLostTurns(
  sessionId: string,
  stored: SessionState | undefined,
  next: SessionState,
): void {
  if (next.version !== undefined) {
    if ((stored?.version ?? 0) !== next.version) throw new SessionConflictError(sessionId);
    return;
  }
  const kept = stored?.history ?? [];
  if (kept.length > next.history.length) throw new SessionConflictError(sessionId);
  for (let i = 0; i < kept.length; i++) {
    if (canonicalJson(kept[i]) !== canonicalJson(next.history[i])) throw new SessionConflictError(sessionId);
  }
}

/** JSON with object keys sorted, so equal items compare equal whatever order their keys were set in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** The default store: sessions live as long as the process (and the Team) does. */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, SessionState>();

  async get(sessionId: string): Promise<SessionState | undefined> {
    const state = this.#sessions.get(sessionId);
    return state ? structuredClone(state) : undefined;
  }

  async set(sessionId: string, state: SessionState): Promise<void> {
    const stored = this.#sessions.get(sessionId);
    assertNoLostTurns(sessionId, stored, state);
    this.#sessions.set(sessionId, { ...structuredClone(state), version: (stored?.version ?? 0) + 1 });
  }
}
