import { ConfigError, type Journal, type JournalEntry, parseJournalEntry, validateRunId } from '@swarm/core';
import { Redis } from 'ioredis';
import { type RedisConnection, redisOptions } from './connection.js';
import { JournalNotReplicatedError } from './queue-errors.js';

/** Options of `redisJournal`. */
export interface RedisJournalOptions {
  /** Prefix of the Redis keys (default `swarm:journal:`): a run's entries are the list `<prefix><runId>`. */
  prefix?: string;
  /**
   * After each append, wait until this many replicas hold it too (Redis `WAIT`), so that it
   * survives a failover to one of them (default 0: the primary's acknowledgement).
   */
  replicas?: number;
  /** How long an append waits for those replicas before it fails (default 1,000 ms). */
  replicaTimeoutMs?: number;
}

/** A journal in Redis: core's `Journal`, plus deleting a finished run's entries and closing the connection. */
export interface RedisJournal extends Journal {
  /** Deletes the run's entries (a run that will not be resumed or replayed again). */
  delete(runId: string): Promise<void>;
  /** Closes its Redis connection. */
  close(): Promise<void>;
}

/** The first element of every journal list: what it is, and the format version that wrote it. */
const formatVersion = 1;

// One script, so the header goes in with the first entry and a list is never left without it.
const appendScript = `
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return redis.call('RPUSH', KEYS[1], ARGV[2])`;

/**
 * A run journal shared by every process that reaches Redis: one append-only list per run id, so a
 * run a dead worker left is resumed by another. `append` resolves once Redis has acknowledged the
 * entry (and, with `replicas`, once that many replicas hold it); how long that survives a Redis
 * crash is Redis's persistence setting (see the README).
 */
export function redisJournal(connection: RedisConnection, options: RedisJournalOptions = {}): RedisJournal {
  const connectionOptions = redisOptions(connection, 'redisJournal');
  const { prefix = 'swarm:journal:', replicas = 0, replicaTimeoutMs = 1_000 } = options;
  if (typeof prefix !== 'string') throw new ConfigError('redisJournal: prefix must be a string.');
  if (!Number.isInteger(replicas) || replicas < 0) {
    throw new ConfigError(`redisJournal: replicas must be an integer >= 0 (got ${replicas}).`);
  }
  if (!Number.isInteger(replicaTimeoutMs) || replicaTimeoutMs < 1) {
    throw new ConfigError(
      `redisJournal: replicaTimeoutMs must be an integer >= 1 (got ${replicaTimeoutMs}).`,
    );
  }
  let client: Redis | undefined;
  let closed = false;
  const redis = () => {
    if (closed) throw new ConfigError('redisJournal: the journal is closed.');
    client ??= new Redis(connectionOptions);
    return client;
  };
  const keyOf = (runId: string) => `${prefix}${validateRunId(runId)}`;

  return {
    async read(runId) {
      const key = keyOf(runId);
      const lines = await wrongType(key, () => redis().lrange(key, 0, -1));
      if (lines.length === 0) return [];
      checkHeader(lines[0]!, key, runId);
      return lines.slice(1).map((line, i) => {
        const where = `redis journal ${key} entry ${i + 1}`;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw new ConfigError(
            `${where} is not valid JSON; the list was changed by something other than swarm.`,
          );
        }
        return parseJournalEntry(value, where);
      });
    },

    async append(runId, entry: JournalEntry) {
      const key = keyOf(runId);
      const header = JSON.stringify({ swarmJournal: formatVersion, runId });
      await wrongType(key, () => redis().eval(appendScript, 1, key, header, JSON.stringify(entry)));
      if (replicas === 0) return;
      // WAIT covers every write this connection made before it, this append's included.
      const acknowledged = await redis().wait(replicas, replicaTimeoutMs);
      if (acknowledged < replicas) {
        throw new JournalNotReplicatedError(runId, replicas, acknowledged, replicaTimeoutMs);
      }
    },

    async delete(runId) {
      await redis().del(keyOf(runId));
    },

    async close() {
      closed = true;
      await client?.quit().catch(() => client?.disconnect());
    },
  };
}

function checkHeader(line: string, key: string, runId: string): void {
  let header: { swarmJournal?: unknown; runId?: unknown } | undefined;
  try {
    header = JSON.parse(line) as typeof header;
  } catch {
    header = undefined;
  }
  if (typeof header !== 'object' || header === null || header.swarmJournal === undefined) {
    throw new ConfigError(
      `redis key ${key} is not a swarm journal: its first element is not a journal header.`,
    );
  }
  if (header.swarmJournal !== formatVersion) {
    throw new ConfigError(
      `redis key ${key} is a journal of format ${JSON.stringify(header.swarmJournal)}; this @swarm/queue reads format ${formatVersion}.`,
    );
  }
  if (header.runId !== runId) {
    throw new ConfigError(
      `redis key ${key} holds run ${JSON.stringify(header.runId)}, not ${JSON.stringify(runId)}.`,
    );
  }
}

// A key that holds something other than a list is not ours: say so rather than Redis's WRONGTYPE.
async function wrongType<T>(key: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('WRONGTYPE')) {
      throw new ConfigError(`redis key ${key} is not a swarm journal (it holds another kind of value).`, {
        cause: error,
      });
    }
    throw error;
  }
}
