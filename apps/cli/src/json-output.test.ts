import { SwarmError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { toJson } from './json-output.js';

describe('toJson', () => {
  it('writes plain data exactly as JSON.stringify does', () => {
    const data = { output: 'hi', usage: { totalTokens: 3 }, list: [1, 'a', null], nested: { x: true } };
    expect(toJson(data)).toBe(JSON.stringify(data, null, 2));
  });

  it('never throws on a cycle: the repeated reference becomes "[Circular]"', () => {
    const result: Record<string, unknown> = { output: 'hi' };
    result.self = result;
    result.children = [{ parent: result }];
    expect(JSON.parse(toJson(result))).toEqual({
      output: 'hi',
      self: '[Circular]',
      children: [{ parent: '[Circular]' }],
    });
  });

  it('keeps an object seen twice side by side (a shared reference is no cycle)', () => {
    const usage = { totalTokens: 1 };
    expect(JSON.parse(toJson({ a: usage, b: usage }))).toEqual({ a: usage, b: usage });
  });

  it('writes an error as its name, message and code, and a bigint, Map and Set as JSON', () => {
    const value = {
      error: new SwarmError('MODEL', 'down'),
      big: 10n,
      map: new Map([['k', 1]]),
      set: new Set(['x']),
    };
    expect(JSON.parse(toJson(value))).toEqual({
      error: { name: 'SwarmError', message: 'down', code: 'MODEL' },
      big: '10',
      map: { k: 1 },
      set: ['x'],
    });
  });
});
