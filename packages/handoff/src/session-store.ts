import { z } from 'zod';
import { type HistoryItem, historyItemSchema } from './history.js';

/** What a swarm remembers of one conversation between runs: the thread, and who answered last. */
export interface SessionState {
  history: HistoryItem[];
  lastAgent: string;
}

/**
 * Where a swarm keeps its conversations, keyed by `sessionId`. Implement it to keep sessions in a
 * database; `InMemorySessionStore` and `FileSessionStore` ship with the package.
 */
export interface SessionStore {
  get(sessionId: string): Promise<SessionState | undefined>;
  set(sessionId: string, state: SessionState): Promise<void>;
}

/** Validates a stored session read back from outside the process. */
export const sessionStateSchema: z.ZodType<SessionState> = z.object({
  history: z.array(historyItemSchema),
  lastAgent: z.string(),
});

/** The default store: sessions live as long as the process (and the Team) does. */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, SessionState>();

  async get(sessionId: string): Promise<SessionState | undefined> {
    const state = this.#sessions.get(sessionId);
    return state ? structuredClone(state) : undefined;
  }

  async set(sessionId: string, state: SessionState): Promise<void> {
    this.#sessions.set(sessionId, structuredClone(state));
  }
}
