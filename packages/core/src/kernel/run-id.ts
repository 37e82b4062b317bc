import { randomUUID } from './random-uuid.js';

// 74 random bits drawn once per process (a v4 UUID's first four groups), then a counter in the
// last group: the ids keep the UUID shape, stay unique across processes, and cost no randomness
// per run.
let prefix = '';
let counter = 0;
const counterLimit = 2 ** 48;

/**
 * A new run id in the shape of a UUID: a prefix random per process and a counter, so that ids are
 * unique across processes (74 random bits apart) without drawing random bytes for every run.
 */
export function newRunId(): string {
  if (prefix === '' || counter >= counterLimit) {
    prefix = randomUUID().slice(0, 24);
    counter = 0;
  }
  return prefix + (counter++).toString(16).padStart(12, '0');
}
