import { Agent, ConfigError } from '@swarm/core';
import { z } from 'zod';
import type { HistoryItem } from './history.js';

/** What an input filter learns about the handoff it is rewriting the history for. */
export interface HandoffInfo {
  from: string;
  to: string;
  message: string;
  /** The validated arguments of a typed (`transfer_to_<name>`) handoff. */
  arguments?: Record<string, unknown>;
}

/**
 * Rewrites what the peer taking over sees: it receives the history it would otherwise get (see
 * `passFullHistory`) and returns the history to show instead.
 */
export type InputFilter = (
  history: HistoryItem[],
  info: HandoffInfo,
) => HistoryItem[] | Promise<HistoryItem[]>;

/** Options of `handoff()`: how other agents reach this peer and what it sees when they do. */
export interface HandoffOptions {
  /** Structured handoff arguments: agents reach this peer through a `transfer_to_<name>` tool with this schema. */
  inputType?: z.ZodObject;
  /** Rewrites the history this peer sees when it is handed the conversation. */
  inputFilter?: InputFilter;
  /** Tells the other agents when to hand off to this peer (default: the agent's description or instructions). */
  description?: string;
}

/** A peer agent wrapped with handoff options; put it in `Team.swarm({ agents })` in place of the agent. */
export interface Handoff extends HandoffOptions {
  readonly kind: 'handoff';
  readonly agent: Agent<unknown>;
}

/** Wraps a peer so that handing off to it is typed (`inputType`), filtered (`inputFilter`) or described. */
export function handoff(agent: Agent<unknown>, options: HandoffOptions = {}): Handoff {
  if (!(agent instanceof Agent)) throw new ConfigError('handoff: the first argument must be an Agent.');
  if (options.inputType !== undefined && !(options.inputType instanceof z.ZodObject)) {
    throw new ConfigError(`handoff("${agent.name}"): inputType must be a z.object(...) schema.`);
  }
  if (options.inputFilter !== undefined && typeof options.inputFilter !== 'function') {
    throw new ConfigError(`handoff("${agent.name}"): inputFilter must be a function.`);
  }
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw new ConfigError(`handoff("${agent.name}"): description must be a string.`);
  }
  return { kind: 'handoff', agent, ...options };
}

/** True for what `handoff()` returns, as opposed to a bare Agent. */
export function isHandoff(value: unknown): value is Handoff {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'handoff';
}
