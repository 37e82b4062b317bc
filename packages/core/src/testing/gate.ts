import { nextTurn } from './next-turn.js';

/**
 * A promise you open by hand, for proving concurrency without timings: tasks wait on the gate, the
 * test checks how many are waiting, then opens it.
 */
export class Gate {
  readonly #waiters: (() => void)[] = [];
  #open = false;

  /** How many are waiting now. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Resolves when the gate opens (at once if it is open). */
  wait(): Promise<void> {
    if (this.#open) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Opens the gate and releases everyone waiting. */
  open(): void {
    this.#open = true;
    for (const release of this.#waiters.splice(0)) release();
  }

  /** Resolves once `count` are waiting. */
  async until(count: number): Promise<void> {
    while (this.#waiters.length < count) await nextTurn();
  }
}
