import type { Member } from '@swarm/core';

/**
 * Workers that claim tasks: a free worker takes the next task and is busy until it is done. The
 * scheduler never runs more tasks at once than there are workers, so a claim always finds one.
 */
export class WorkerPool {
  readonly #free: Member[];

  constructor(workers: readonly Member[]) {
    this.#free = [...workers];
  }

  /** The first free worker, now busy. */
  claim(): Member {
    const worker = this.#free.shift();
    if (!worker) throw new Error('WorkerPool: no free worker (more tasks in flight than workers).');
    return worker;
  }

  /** Frees a worker for the next task. */
  release(worker: Member): void {
    this.#free.push(worker);
  }
}
