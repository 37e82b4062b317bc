export type { RedisConnection } from './connection.js';
export { createWorker, type RateLimit, type SwarmWorker, type SwarmWorkerOptions } from './create-worker.js';
export type { QueuedRunOptions, SwarmJobData } from './job-data.js';
export {
  JobLostError,
  JobTimeoutError,
  JournalNotReplicatedError,
  type QueueErrorCode,
} from './queue-errors.js';
export { type RedisJournal, type RedisJournalOptions, redisJournal } from './redis-journal.js';
export {
  RedisSessionStore,
  type RedisSessionStoreOptions,
  type StoredSession,
} from './redis-session-store.js';
export {
  decodeFailedReason,
  encodeFailedReason,
  rebuildError,
  type SerializedError,
  serializeError,
} from './serialized-error.js';
export type { ResultOptions, SwarmJob } from './swarm-job.js';
export {
  type BatchedRunOptions,
  type EnqueueOptions,
  SwarmQueue,
  type SwarmQueueOptions,
} from './swarm-queue.js';
