import { ConfigError, type OutputType, outputTypes } from '@swarm/core';

/** An integer option at least `min` (its default when undefined), or a ConfigError naming it and the range. */
export function integerOption(
  owner: string,
  option: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min) {
    throw new ConfigError(`${owner}: ${option} must be an integer >= ${min} (got ${value}).`);
  }
  return chosen;
}

/** A concurrency option: an integer >= 1 or Infinity (the default). */
export function concurrencyOption(owner: string, option: string, value: number | undefined): number {
  const chosen = value ?? Number.POSITIVE_INFINITY;
  if (!(chosen === Number.POSITIVE_INFINITY || (Number.isInteger(chosen) && chosen >= 1))) {
    throw new ConfigError(`${owner}: ${option} must be an integer >= 1 or Infinity (got ${value}).`);
  }
  return chosen;
}

/** A time limit in milliseconds: a positive finite number. */
export function timeoutOption(
  owner: string,
  option: string,
  value: number | undefined,
  fallback: number,
): number {
  const chosen = value ?? fallback;
  if (!(Number.isFinite(chosen) && chosen > 0)) {
    throw new ConfigError(`${owner}: ${option} must be a positive number of milliseconds (got ${value}).`);
  }
  return chosen;
}

/** One of core's output types (default `'final'`). */
export function outputTypeOption(owner: string, value: OutputType | undefined): OutputType {
  const chosen = value ?? 'final';
  if (!outputTypes.includes(chosen)) {
    throw new ConfigError(
      `${owner}: outputType must be one of ${outputTypes.join(', ')} (got ${JSON.stringify(value)}).`,
    );
  }
  return chosen;
}

/** A boolean option (its default when undefined). */
export function booleanOption(
  owner: string,
  option: string,
  value: boolean | undefined,
  fallback: boolean,
): boolean {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'boolean') {
    throw new ConfigError(`${owner}: ${option} must be true or false (got ${JSON.stringify(value)}).`);
  }
  return chosen;
}
