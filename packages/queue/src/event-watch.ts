import type { SwarmEvent } from '@swarm/core';
import { Redis } from 'ioredis';
import type { RedisOptions } from './connection.js';

// A producer that reads a job's events says so with a key (for attempts that start later) and a
// message on a channel (for the attempt running now). Workers publish only then, so a job nobody
// watches costs no Redis command per event. Under the queue's BullMQ prefix, so `obliterate`
// removes them with the queue.

/** The key that marks a job as watched; it expires after `WATCH_TTL_SECONDS`. */
export const watchKey = (queue: string, jobId: string) => `bull:${queue}:swarm-watch:${jobId}`;
/** The channel that tells workers a job's events are being read now. */
export const watchChannel = (queue: string) => `bull:${queue}:swarm-watch`;
/** How long a producer's watch holds for attempts not started yet: a day. */
export const WATCH_TTL_SECONDS = 86_400;

/** Marks the job as watched, for the attempt running now and those to come. */
export async function watchJob(client: Redis, queue: string, jobId: string): Promise<void> {
  const replies = await client
    .multi()
    .set(watchKey(queue, jobId), '1', 'EX', WATCH_TTL_SECONDS)
    .publish(watchChannel(queue), jobId)
    .exec();
  const failed = replies?.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
}

/** One job attempt's events: held until a producer watches the job, then published in order. */
export class AttemptEvents {
  readonly jobId: string;
  readonly #publish: (event: SwarmEvent) => Promise<unknown>;
  readonly #checked: Promise<void>;
  #buffer: SwarmEvent[] | undefined = [];
  #published: Promise<unknown> = Promise.resolve();

  constructor(jobId: string, publish: (event: SwarmEvent) => Promise<unknown>, watched: Promise<boolean>) {
    this.jobId = jobId;
    this.#publish = publish;
    this.#checked = watched.then((yes) => {
      if (yes) this.watch();
    });
    // Reported by published(), which the run awaits at its end; not an unhandled rejection before.
    this.#checked.catch(() => undefined);
  }

  /** An event of the run: published now if the job is watched, else kept for a watcher to come. */
  event(event: SwarmEvent): void {
    if (this.#buffer) this.#buffer.push(event);
    else this.#send(event);
  }

  /** A producer reads this job's events: everything so far goes out, then each event as it comes. */
  watch(): void {
    const held = this.#buffer;
    if (!held) return;
    this.#buffer = undefined;
    for (const event of held) this.#send(event);
  }

  /** Resolves once every event of a watched attempt is published; rejects with the first failure. */
  async published(): Promise<void> {
    await this.#checked;
    await this.#published;
  }

  #send(event: SwarmEvent): void {
    this.#published = this.#published.then(() => this.#publish(event));
    this.#published.catch(() => undefined);
  }
}

/** The worker side: which of its running attempts are watched, learnt from the key and the channel. */
export class EventWatches {
  readonly #queue: string;
  readonly #client: Redis;
  readonly #subscriber: Redis;
  readonly #running = new Map<string, Set<AttemptEvents>>();
  readonly #subscribed: Promise<unknown>;

  constructor(queue: string, connection: RedisOptions, onError: (error: Error) => void) {
    this.#queue = queue;
    this.#client = new Redis({ ...connection, maxRetriesPerRequest: null });
    this.#subscriber = new Redis({ ...connection, maxRetriesPerRequest: null });
    for (const client of [this.#client, this.#subscriber]) client.on('error', onError);
    this.#subscriber.on('message', (_channel: string, jobId: string) => {
      for (const attempt of this.#running.get(jobId) ?? []) attempt.watch();
    });
    this.#subscribed = this.#subscriber.subscribe(watchChannel(queue));
  }

  /** Resolves once the worker hears producers' watches. */
  async ready(): Promise<void> {
    await this.#subscribed;
  }

  /** Starts following one attempt of a job; `end` it when the run is over. */
  attempt(jobId: string, publish: (event: SwarmEvent) => Promise<unknown>): AttemptEvents {
    // Registered before the key is read: a watch that starts in between is heard on the channel.
    const watched = this.#client.exists(watchKey(this.#queue, jobId)).then((count) => count === 1);
    const attempt = new AttemptEvents(jobId, publish, watched);
    const attempts = this.#running.get(jobId) ?? new Set();
    attempts.add(attempt);
    this.#running.set(jobId, attempts);
    return attempt;
  }

  /** Stops following the attempt. */
  end(attempt: AttemptEvents): void {
    const attempts = this.#running.get(attempt.jobId);
    attempts?.delete(attempt);
    if (attempts?.size === 0) this.#running.delete(attempt.jobId);
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.#client, this.#subscriber].map((client) => client.quit().catch(() => client.disconnect())),
    );
  }
}
