import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { SwarmEvent } from '@swarm/core';

/** MCP log levels from least to most severe (RFC 5424, as the protocol orders them). */
export const logLevels: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * The log level of a run's event: failures are errors, a tool error the model saw is a warning,
 * the model's requests and answers are debug (there are many), the rest of the run's story is info.
 */
export function eventLevel(event: SwarmEvent): LoggingLevel {
  if (event.type.endsWith('.error')) return 'error';
  if (event.type === 'warning' || (event.type === 'tool.result' && event.isError === true)) return 'warning';
  if (event.type.startsWith('model.')) return 'debug';
  return 'info';
}

/** One line saying what an event is, for a progress notification's message. */
export function eventLine(event: SwarmEvent): string {
  const who = event.agent ?? event.topology;
  const tool = typeof event.tool === 'string' ? ` ${event.tool}` : '';
  return `${who === undefined ? '' : `${who}: `}${event.type}${tool}`;
}
