import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../kernel/errors.js';
import { formatOrSchema } from './structured-output.js';

const formats = ['final', 'all', 'list'] as const;

describe("a topology's outputType: a conversation format or a schema", () => {
  it('takes a format by name, and the fallback when none is given', () => {
    expect(formatOrSchema('Swarm', 'all', formats, 'final')).toEqual({ format: 'all' });
    expect(formatOrSchema('Swarm', undefined, formats, 'final')).toEqual({ format: 'final' });
  });

  it('takes a z.object schema as the final answer, typed', () => {
    const schema = z.object({ city: z.string() });
    const chosen = formatOrSchema('Swarm', schema, formats, 'final');
    expect(chosen.format).toBe('final');
    expect(chosen.schema).toBe(schema);
  });

  it('refuses anything else with a ConfigError naming the option and both kinds', () => {
    for (const bad of ['markdown', 42, { type: 'object' }, z.string()]) {
      expect(() => formatOrSchema('HierarchicalSwarm', bad, formats, 'final')).toThrow(ConfigError);
    }
    expect(() => formatOrSchema('HierarchicalSwarm', z.string(), formats, 'final')).toThrow(
      "HierarchicalSwarm: outputType must be one of 'final', 'all', 'list', or a z.object(...) schema for a typed final answer (got a string schema).",
    );
  });
});
