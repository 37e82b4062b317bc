import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import {
  booleanOption,
  concurrencyOption,
  integerOption,
  numberOption,
  optionalIntegerOption,
  outputTypeOption,
  timeoutOption,
} from './option-checks.js';

describe('option checks', () => {
  it('take the default for undefined and the value when it is in range', () => {
    expect(integerOption('T', 'rounds', undefined, 3, 1)).toBe(3);
    expect(integerOption('T', 'rounds', 5, 3, 1, 10)).toBe(5);
    expect(optionalIntegerOption('T', 'maxWorkers', undefined)).toBeUndefined();
    expect(numberOption('T', 'threshold', 0.5, 0.7, 0, 1)).toBe(0.5);
    expect(concurrencyOption('T', 'maxWorkers', undefined)).toBe(Number.POSITIVE_INFINITY);
    expect(timeoutOption('T', 'timeoutMs', undefined, 1000)).toBe(1000);
    expect(booleanOption('T', 'parallel', undefined, true)).toBe(true);
    expect(outputTypeOption('T', undefined)).toBe('final');
  });

  it('name the owner, the option, the range and the value given', () => {
    expect(() => integerOption('GroupChat', 'maxMessages', 0, 12, 1)).toThrow(
      new ConfigError('GroupChat: maxMessages must be an integer >= 1 (got 0).'),
    );
    expect(() => integerOption('T', 'layers', 2.5, 3, 1, 10)).toThrow(
      'T: layers must be an integer between 1 and 10 (got 2.5).',
    );
    expect(() => optionalIntegerOption('T', 'maxWorkers', 0)).toThrow(
      'T: maxWorkers must be an integer >= 1 (got 0).',
    );
    expect(() => numberOption('T', 'threshold', 2, 0.5, 0, 1)).toThrow(
      'T: threshold must be a number between 0 and 1 (got 2).',
    );
    expect(() => concurrencyOption('T', 'maxWorkers', 0)).toThrow(/integer >= 1 or Infinity \(got 0\)/);
    expect(() => timeoutOption('T', 'timeoutMs', -1, 5)).toThrow(
      'T: timeoutMs must be a positive number of milliseconds, at most 2147483647 (got -1).',
    );
    // A longer one would fire at once: Node runs a timer of more than 2^31 - 1 ms after 1 ms.
    expect(() => timeoutOption('T', 'timeoutMs', 2 ** 31, 5)).toThrow(
      /at most 2147483647 \(got 2147483648\)/,
    );
    expect(() => booleanOption('T', 'parallel', 'yes', true)).toThrow(
      'T: parallel must be true or false (got "yes").',
    );
    expect(() => outputTypeOption('T', 'xml')).toThrow(/outputType must be one of final, /);
  });
});
