import { ConfigError, describeZodError, SessionConflictError } from '@swarm/core';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { type RedisConnection, type RedisOptions, redisOptions } from './connection.js';
import { currentJob, nextTurn, type TurnRead } from './job-scope.js';

/**
 * One conversation as a session store keeps it: the thread and the agent that answered last (the
 * shape of `@swarm/handoff`'s `SessionState`), with the number of saves it has had.
 */
export interface StoredSession<Item = unknown> {
  history: Item[];
  lastAgent: string;
  /** Saves so far. Passed back to `set`, it names the save this write was based on. */
  version: number;
}

/** Options of `new RedisSessionStore`. */
export interface RedisSessionStoreOptions<Item> {
  /** Where Redis is. */
  connection: RedisConnection;
  /** Prefix of the Redis keys (default `swarm:session:`). */
  prefix?: string;
  /** Validates each history item read back (give `historyItemSchema` from `@swarm/handoff`). */
  itemSchema?: z.ZodType<Item>;
  /** Forget a session this long after its last save (default: never). */
  ttlSeconds?: number;
  /** Saves retried when other writers keep winning the race, before `SessionConflictError` (default 50). */
  maxAttempts?: number;
}

/**
 * Sessions in Redis, shared by every worker: implements the session-store contract of
 * `@swarm/handoff` (`get` / `set`) so `Team.swarm({ sessions })` continues a conversation on any
 * worker. Saves are versioned (WATCH/MULTI): a turn saved over a session another writer changed
 * since this one read it is appended to the fresh history, so two concurrent turns both stay.
 * Inside a queued job, each save is recorded as that job's turn in the same transaction: a job run
 * again (its worker died after the save) reads the session as its first attempt did and saves
 * nothing twice.
 */
export class RedisSessionStore<Item = unknown> {
  readonly #options: RedisOptions;
  readonly #prefix: string;
  readonly #schema: z.ZodType<{ history: Item[]; lastAgent: string }>;
  readonly #ttlSeconds: number | undefined;
  readonly #maxAttempts: number;
  // The version each session had when this store last read it: the base of the next save.
  readonly #reads = new Map<string, number>();
  // WATCH holds per connection, so each save takes a connection of its own.
  readonly #idle: Redis[] = [];
  readonly #all = new Set<Redis>();
  #client: Redis | undefined;
  #closed = false;

  constructor(options: RedisSessionStoreOptions<Item>) {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('RedisSessionStore: options are required ({ connection }).');
    }
    this.#options = redisOptions(options.connection, 'RedisSessionStore');
    this.#prefix = options.prefix ?? 'swarm:session:';
    if (typeof this.#prefix !== 'string')
      throw new ConfigError('RedisSessionStore: prefix must be a string.');
    const ttl = options.ttlSeconds;
    if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1)) {
      throw new ConfigError(`RedisSessionStore: ttlSeconds must be an integer >= 1 (got ${ttl}).`);
    }
    this.#ttlSeconds = ttl;
    const maxAttempts = options.maxAttempts ?? 50;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new ConfigError(`RedisSessionStore: maxAttempts must be an integer >= 1 (got ${maxAttempts}).`);
    }
    this.#maxAttempts = maxAttempts;
    this.#schema = z.object({
      history: z.array((options.itemSchema ?? z.unknown()) as z.ZodType<Item>),
      lastAgent: z.string(),
    });
  }

  /**
   * The session as last saved by any worker, or undefined for a new one. Inside a job whose turn
   * was saved by an earlier attempt, the session as that attempt read it.
   */
  async get(sessionId: string): Promise<StoredSession<Item> | undefined> {
    const key = this.#key(sessionId);
    const job = currentJob();
    const turnField = job && `turn:${nextTurn(job, sessionId)}`;
    const [state = null, version = null, savedTurn = null] = await this.#shared().hmget(
      key,
      'state',
      'version',
      ...(turnField ? [turnField] : []),
    );
    let stored = state === null ? undefined : this.#parse(sessionId, state, Number(version));
    if (stored && savedTurn !== null) {
      const read = this.#parseTurn(sessionId, savedTurn);
      stored =
        read.version === 0
          ? undefined
          : {
              history: stored.history.slice(0, read.length),
              lastAgent: read.lastAgent ?? stored.lastAgent,
              version: read.version,
            };
    }
    const read = {
      version: stored?.version ?? 0,
      length: stored?.history.length ?? 0,
      lastAgent: stored?.lastAgent,
    };
    if (job) job.reads.set(sessionId, read);
    else this.#reads.set(sessionId, read.version);
    return stored;
  }

  /**
   * Saves the session. When another writer saved since this store read it (or since
   * `state.version`), the turns this write adds are appended to the fresh history instead of
   * replacing it; a write that changed the turns it read is refused with `SessionConflictError`.
   * Inside a job, a turn an earlier attempt of the job saved is not saved again.
   */
  async set(
    sessionId: string,
    state: { history: Item[]; lastAgent: string; version?: number },
  ): Promise<void> {
    if (!Array.isArray(state?.history) || typeof state.lastAgent !== 'string') {
      throw new ConfigError('RedisSessionStore.set: state must be { history: [...], lastAgent: string }.');
    }
    const key = this.#key(sessionId);
    const job = currentJob();
    // Named after the job attempt's count of saves, so a second attempt names its saves alike.
    const turnField = job && `turn:${nextTurn(job, sessionId)}`;
    job?.saves.set(sessionId, (job.saves.get(sessionId) ?? 0) + 1);
    const read = job?.reads.get(sessionId);
    const base = state.version ?? (job ? read?.version : this.#reads.get(sessionId));
    const client = await this.#acquire();
    try {
      for (let attempt = 0; attempt < this.#maxAttempts; attempt++) {
        await client.watch(key);
        const [raw = null, rawVersion = null, rawLengths = null, savedTurn = null] = await client.hmget(
          key,
          'state',
          'version',
          'lengths',
          ...(turnField ? [turnField] : []),
        );
        // An earlier attempt of this job saved this turn (its worker died after): once is enough.
        if (savedTurn !== null) return;
        const version = rawVersion === null ? 0 : Number(rawVersion);
        const stored = raw === null ? undefined : this.#parse(sessionId, raw, version);
        const lengths = rawLengths === null ? [0] : (JSON.parse(rawLengths) as number[]);
        const history = merged(sessionId, stored?.history ?? [], state.history, base, lengths);
        // What this turn was based on, for a second attempt to read back (in the same transaction).
        const turn: TurnRead = read ?? {
          version,
          length: stored?.history.length ?? 0,
          lastAgent: stored?.lastAgent,
        };
        const write = client.multi().hset(key, {
          state: JSON.stringify({ history, lastAgent: state.lastAgent }),
          version: String(version + 1),
          lengths: JSON.stringify([...lengths, history.length]),
          ...(turnField ? { [turnField]: JSON.stringify(turn) } : {}),
        });
        if (this.#ttlSeconds !== undefined) write.expire(key, this.#ttlSeconds);
        // EXEC answers null when the key changed after WATCH: read the fresh session and try again.
        if ((await write.exec()) !== null) return;
      }
      throw new SessionConflictError(
        sessionId,
        `Session "${sessionId}": other writers kept saving first; gave up after ${this.#maxAttempts} attempts.`,
      );
    } finally {
      await client.unwatch().catch(() => undefined);
      this.#release(client);
    }
  }

  /** Closes the store's Redis connections. */
  async close(): Promise<void> {
    this.#closed = true;
    const clients = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    this.#client = undefined;
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  }

  #key(sessionId: string): string {
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new ConfigError('RedisSessionStore: sessionId must be a non-empty string.');
    }
    return `${this.#prefix}${sessionId}`;
  }

  #parse(sessionId: string, raw: string, version: number): StoredSession<Item> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new ConfigError(`RedisSessionStore: session "${sessionId}" is not valid JSON.`, { cause: error });
    }
    const parsed = this.#schema.safeParse(json);
    if (!parsed.success) {
      throw new ConfigError(
        `RedisSessionStore: session "${sessionId}" is not a saved session (${describeZodError(parsed.error)}).`,
        { cause: parsed.error },
      );
    }
    return { history: parsed.data.history, lastAgent: parsed.data.lastAgent, version };
  }

  #parseTurn(sessionId: string, raw: string): TurnRead {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new ConfigError(`RedisSessionStore: session "${sessionId}" has a turn record that is not JSON.`, {
        cause: error,
      });
    }
    const parsed = turnReadSchema.safeParse(json);
    if (!parsed.success) {
      throw new ConfigError(
        `RedisSessionStore: session "${sessionId}" has a bad turn record (${describeZodError(parsed.error)}).`,
        { cause: parsed.error },
      );
    }
    return parsed.data;
  }

  #shared(): Redis {
    if (this.#closed) throw new ConfigError('RedisSessionStore: the store is closed.');
    if (!this.#client) {
      this.#client = new Redis(this.#options);
      this.#all.add(this.#client);
    }
    return this.#client;
  }

  async #acquire(): Promise<Redis> {
    if (this.#closed) throw new ConfigError('RedisSessionStore: the store is closed.');
    const idle = this.#idle.pop();
    if (idle) return idle;
    const client = new Redis(this.#options);
    this.#all.add(client);
    return client;
  }

  #release(client: Redis): void {
    if (this.#all.has(client)) this.#idle.push(client);
  }
}

const turnReadSchema = z.object({
  version: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
  lastAgent: z.string().optional(),
});

/**
 * The history to save: the writer's, when it contains everything stored; else the stored history
 * followed by the turns the writer added to the version it read (`base`).
 */
function merged<Item>(
  sessionId: string,
  stored: Item[],
  written: Item[],
  base: number | undefined,
  lengths: number[],
): Item[] {
  if (startsWith(written, stored)) return written;
  const baseLength = base === undefined ? undefined : lengths[base];
  if (baseLength === undefined || !startsWith(written, stored.slice(0, baseLength))) {
    throw new SessionConflictError(
      sessionId,
      `Session "${sessionId}" changed since it was read, and this save does not extend the history it read.`,
    );
  }
  return [...stored, ...written.slice(baseLength)];
}

function startsWith<Item>(items: Item[], prefix: Item[]): boolean {
  if (prefix.length > items.length) return false;
  return prefix.every((item, i) => canonicalJson(item) === canonicalJson(items[i]));
}

/** JSON with object keys sorted, so equal items compare equal whatever order their keys were set in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
