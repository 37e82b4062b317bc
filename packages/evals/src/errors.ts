import { ConfigError } from '@swarm/core';

/** A dataset that cannot be read: names the file and line (or the array index) and the problem. */
export class DatasetError extends ConfigError {
  /** Where the problem is: `file:line` for JSONL, `dataset[index]` for an array. */
  readonly where: string;

  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = 'DatasetError';
    this.where = where;
  }
}

/** An eval check failed (a score under its threshold or below its baseline): thrown by `expectScore`. */
export class EvalAssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvalAssertionError';
  }
}
