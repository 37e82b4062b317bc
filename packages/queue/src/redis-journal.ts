import { hostname } from 'node:os';
import {
  ConfigError,
  checkedLine,
  type Journal,
  type JournalEntry,
  type JournalLease,
  type LeaseHolder,
  parseJournalEntry,
  RunLockedError,
  staleLeaseMessage,
  validateRunId,
} from '@swarm/core';
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
  /**
   * How long a run's lease lasts unless renewed (default 30,000 ms). Its holder renews it every
   * third of that while the run goes on; a holder that dies loses it this long after.
   */
  leaseMs?: number;
}

/** What ties a lease to a BullMQ job: the run is the job's while the job's lock holds its token. */
export interface JobLock {
  /** The job's lock key (`bull:<queue>:<jobId>:lock`). */
  key: string;
  /** The worker's token for the job (the processor's second argument). */
  token: string;
  /** Names the holder in a `RunLockedError` (e.g. `worker w1, job 42`). */
  holder?: string;
}

/** A journal in Redis: core's `Journal`, plus deleting a finished run's entries and closing the connection. */
export interface RedisJournal extends Journal {
  /**
   * Takes the run's lease (a fencing token from a counter in Redis, checked and bumped in one
   * script). Given `jobLock`, the lease holds exactly as long as that BullMQ job lock holds the
   * worker's token: a stalled job taken over by another worker is the new worker's at once.
   */
  acquireLease(runId: string, options?: { jobLock?: JobLock }): Promise<JournalLease>;
  releaseLease(lease: JournalLease): Promise<void>;
  /** Deletes the run's entries (a run that will not be resumed or replayed again). */
  delete(runId: string): Promise<void>;
  /** Closes its Redis connection. */
  close(): Promise<void>;
}

/** The first element of every journal list: what it is, and the format version that wrote it. */
const formatVersion = 1;

// One script, so the header goes in with the first entry and a list is never left without it; given
// a token (ARGV[3]), the entry goes in only while it is still the run's newest (fencing).
const appendScript = `
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[3] then
  return {-1, redis.call('GET', KEYS[3]) or ''}
end
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return {redis.call('RPUSH', KEYS[1], ARGV[2]), ''}`;

// Takes the lease unless a live holder has it: one whose job lock (if it named one) still holds its
// token, else one of another journal instance (a run context of this one that left its lease behind
// is taken over, not waited for). Bumps the token counter: every holder gets a newer token.
const acquireScript = `
local current = redis.call('GET', KEYS[1])
if current then
  local held = cjson.decode(current)
  local live = held.process ~= ARGV[5]
  if held.jobLockKey ~= '' then live = redis.call('GET', held.jobLockKey) == held.jobLockToken end
  if live then return {0, current} end
end
local token = redis.call('INCR', KEYS[2])
local lease = cjson.encode({token = token, holder = cjson.decode(ARGV[1]), process = ARGV[5], jobLockKey = ARGV[3], jobLockToken = ARGV[4]})
redis.call('SET', KEYS[1], lease, 'PX', ARGV[2])
return {token, lease}`;

// Renews (ARGV[3] = 1) or gives back (0) the lease of token ARGV[1], if it is still the run's.
const renewScript = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[3] == '0' then redis.call('DEL', KEYS[1]) return 1 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * A run journal shared by every process that reaches Redis: one append-only list per run id, so a
 * run a dead worker left is resumed by another. `append` resolves once Redis has acknowledged the
 * entry (and, with `replicas`, once that many replicas hold it); how long that survives a Redis
 * crash is Redis's persistence setting (see the README).
 */
export function redisJournal(connection: RedisConnection, options: RedisJournalOptions = {}): RedisJournal {
  const connectionOptions = redisOptions(connection, 'redisJournal');
  const { prefix = 'swarm:journal:', replicas = 0, replicaTimeoutMs = 1_000, leaseMs = 30_000 } = options;
  if (!Number.isInteger(leaseMs) || leaseMs < 3) {
    throw new ConfigError(`redisJournal: leaseMs must be an integer >= 3 (got ${leaseMs}).`);
  }
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
  // This journal instance, as its leases name it.
  const processId = `${process.pid}@${hostname()}#${Math.random().toString(36).slice(2, 10)}`;
  // The renewal timers of the leases this journal holds, by run and token.
  const renewals = new Map<string, ReturnType<typeof setInterval>>();
  const stopRenewing = (lease: JournalLease) => {
    const id = `${lease.runId}#${lease.token}`;
    clearInterval(renewals.get(id));
    renewals.delete(id);
  };

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

    async append(runId, entry: JournalEntry, lease?: JournalLease) {
      const key = keyOf(runId);
      const line = checkedLine(entry, `an append to redis journal ${key}`);
      const header = JSON.stringify({ swarmJournal: formatVersion, runId });
      const [count, holder] = (await wrongType(key, () =>
        redis().eval(
          appendScript,
          3,
          key,
          `${key}:token`,
          `${key}:lease`,
          header,
          line,
          lease ? String(lease.token) : '',
        ),
      )) as [number, string];
      if (count === -1) {
        const newer = holderIn(holder);
        throw new RunLockedError(runId, newer, staleLeaseMessage(runId, lease!, newer));
      }
      if (replicas === 0) return;
      // WAIT covers every write this connection made before it, this append's included.
      const acknowledged = await redis().wait(replicas, replicaTimeoutMs);
      if (acknowledged < replicas) {
        throw new JournalNotReplicatedError(runId, replicas, acknowledged, replicaTimeoutMs);
      }
    },

    async acquireLease(runId, leaseOptions = {}) {
      const key = keyOf(runId);
      const { jobLock } = leaseOptions;
      const holder: LeaseHolder = {
        id: `pid ${process.pid}@${hostname()}${jobLock?.holder ? ` (${jobLock.holder})` : ''}`,
        pid: process.pid,
        host: hostname(),
        at: new Date().toISOString(),
      };
      const [token, lease] = (await redis().eval(
        acquireScript,
        2,
        `${key}:lease`,
        `${key}:token`,
        JSON.stringify(holder),
        String(leaseMs),
        jobLock?.key ?? '',
        jobLock?.token ?? '',
        processId,
      )) as [number, string];
      if (token === 0) throw new RunLockedError(runId, holderIn(lease));
      const held: JournalLease = { runId, token, holder };
      const timer = setInterval(
        () => {
          redis()
            .eval(renewScript, 2, `${key}:lease`, `${key}:token`, String(token), String(leaseMs), '1')
            .then(
              (renewed) => {
                if (renewed === 0) stopRenewing(held);
              },
              // A renewal that fails is retried at the next tick; a lease not renewed in time is fenced.
              () => undefined,
            );
        },
        Math.floor(leaseMs / 3),
      );
      timer.unref?.();
      renewals.set(`${runId}#${token}`, timer);
      return held;
    },

    async releaseLease(lease) {
      stopRenewing(lease);
      const key = keyOf(lease.runId);
      await redis().eval(
        renewScript,
        2,
        `${key}:lease`,
        `${key}:token`,
        String(lease.token),
        String(leaseMs),
        '0',
      );
    },

    async delete(runId) {
      const key = keyOf(runId);
      // The token counter outlives the entries a while, so a holder fenced off stays fenced off.
      await redis().multi().del(key, `${key}:lease`).pexpire(`${key}:token`, 86_400_000).exec();
    },

    async close() {
      closed = true;
      for (const timer of renewals.values()) clearInterval(timer);
      renewals.clear();
      await client?.quit().catch(() => client?.disconnect());
    },
  };
}

// The holder a lease record names (undefined for none or one not ours).
function holderIn(lease: string): LeaseHolder | undefined {
  if (lease === '') return undefined;
  try {
    const holder = (JSON.parse(lease) as { holder?: LeaseHolder }).holder;
    return typeof holder?.id === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
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
