import { type FormatOrSchema, formatOrSchema, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';

/** How a routed run's output is given, as swarms' `output_type`: the last answer, or the whole conversation. */
export type RouterOutputType = 'final' | 'all' | 'dict' | 'list';

/** The accepted router output types. */
export const routerOutputTypes: readonly RouterOutputType[] = ['final', 'all', 'dict', 'list'];

// The config key a type loops with, where it is not `maxLoops`.
const loopKeys: Readonly<Record<string, string>> = { RoundRobin: 'rounds', MixtureOfAgents: 'layers' };

/**
 * The config key the router's `maxLoops` goes to for this type: `maxLoops`, `rounds` (RoundRobin),
 * `layers` (MixtureOfAgents); MajorityVoting loops only in its consensus mode. Undefined when the
 * type has no loops.
 */
export function loopKey(descriptor: TopologyDescriptor, config: Record<string, unknown>): string | undefined {
  if (descriptor.type === 'MajorityVoting' && config.mode !== 'consensus') return undefined;
  const key = loopKeys[descriptor.type] ?? 'maxLoops';
  const schema = descriptor.configSchema;
  return schema instanceof z.ZodObject && key in schema.shape ? key : undefined;
}

/**
 * Checks the router's `outputType`: undefined (then `'final'`), one of the four formats, or a
 * `z.object(...)` (the final answer, typed, in `finalOutput`); anything else is a ConfigError.
 */
export function outputTypeOf(value: unknown): FormatOrSchema<RouterOutputType> {
  return formatOrSchema('SwarmRouter', value, routerOutputTypes, 'final');
}
