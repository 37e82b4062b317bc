import { type OutputType, outputTypes } from './conversation.js';
import { ConfigError } from './errors.js';

// One way to check a constructor's options, so every topology's errors read the same:
// "<Owner>: <option> must be <range> (got <value>)."

/** An integer option: its default when undefined, else an integer in `[min, max]`. */
export function integerOption(
  owner: string,
  option: string,
  value: unknown,
  fallback: number,
  min: number,
  max = Number.POSITIVE_INFINITY,
): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isInteger(chosen) || chosen < min || chosen > max) {
    const range = Number.isFinite(max) ? `between ${min} and ${max}` : `>= ${min}`;
    throw new ConfigError(`${owner}: ${option} must be an integer ${range} (got ${String(value)}).`);
  }
  return chosen;
}

/** An optional integer option: undefined stays undefined, else an integer `>= min`. */
export function optionalIntegerOption(
  owner: string,
  option: string,
  value: unknown,
  min = 1,
): number | undefined {
  return value === undefined ? undefined : integerOption(owner, option, value, min, min);
}

/** A number option: its default when undefined, else a number in `[min, max]`. */
export function numberOption(
  owner: string,
  option: string,
  value: unknown,
  fallback: number,
  min: number,
  max = Number.POSITIVE_INFINITY,
): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !(chosen >= min && chosen <= max)) {
    const range = Number.isFinite(max) ? `between ${min} and ${max}` : `>= ${min}`;
    throw new ConfigError(`${owner}: ${option} must be a number ${range} (got ${String(value)}).`);
  }
  return chosen;
}

/** A concurrency option (`maxWorkers`): an integer >= 1, or Infinity (the default). */
export function concurrencyOption(owner: string, option: string, value: unknown): number {
  const chosen = value ?? Number.POSITIVE_INFINITY;
  if (chosen !== Number.POSITIVE_INFINITY && !(Number.isInteger(chosen) && (chosen as number) >= 1)) {
    throw new ConfigError(`${owner}: ${option} must be an integer >= 1 or Infinity (got ${String(value)}).`);
  }
  return chosen as number;
}

/** The longest delay a Node timer honours (2^31 - 1 ms, about 24.8 days): a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Whether `value` is a time limit a timer can keep: a positive number of milliseconds, at most `MAX_TIMER_MS`. */
export function isTimerMs(value: unknown): value is number {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS;
}

/** A time limit in milliseconds: its default when undefined, else a positive number at most `MAX_TIMER_MS`. */
export function timeoutOption(owner: string, option: string, value: unknown, fallback: number): number {
  const chosen = value ?? fallback;
  if (!isTimerMs(chosen)) {
    throw new ConfigError(
      `${owner}: ${option} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${String(value)}).`,
    );
  }
  return chosen;
}

/** A boolean option: its default when undefined. */
export function booleanOption(owner: string, option: string, value: unknown, fallback: boolean): boolean {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'boolean') {
    throw new ConfigError(`${owner}: ${option} must be true or false (got ${JSON.stringify(value)}).`);
  }
  return chosen;
}

/** One of `Conversation.format`'s output types (default `'final'`). */
export function outputTypeOption(owner: string, value: unknown): OutputType {
  const chosen = value ?? 'final';
  if (!outputTypes.includes(chosen as OutputType)) {
    throw new ConfigError(
      `${owner}: outputType must be one of ${outputTypes.join(', ')} (got ${JSON.stringify(value)}).`,
    );
  }
  return chosen as OutputType;
}
