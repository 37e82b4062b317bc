import { ConfigError } from '@swarm/core';

/** Checks a run's task: a string. */
export function checkTask(owner: string, task: unknown): string {
  if (typeof task !== 'string') {
    throw new ConfigError(`${owner} run: task must be a string (got ${typeof task}).`);
  }
  return task;
}

/** Checks a `name` option: undefined (then `fallback`) or a non-empty string. */
export function nameOption(owner: string, name: unknown, fallback: string): string {
  if (name === undefined) return fallback;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ConfigError(`${owner}: name must be a non-empty string.`);
  }
  return name;
}
