import { Agent, ConfigError, type GuardrailOptions, type Tool } from '@swarm/core';
import type { InputFilter } from './handoff.js';
import { type Handoff, isHandoff } from './handoff.js';
import { handoffTools, type Peer, transferToolName } from './handoff-tools.js';
import { InMemorySessionStore, type SessionStore } from './session-store.js';

/** Options of `Team.swarm`: the peers, who starts, who may hand off to whom, and the limits. */
export interface SwarmOptions extends GuardrailOptions {
  /** The peers by name; wrap one in `handoff()` to type, filter or describe handoffs to it. */
  agents: Record<string, Agent<unknown> | Handoff>;
  /** The agent that gets the first message of a session. */
  entryAgent: string;
  /** Allowed handoff targets per agent (default: everyone but itself); an unlisted agent must answer. */
  handoffs?: Record<string, string[]>;
  /** Handoffs one run may make before the agent just handed the conversation must answer (default 8). */
  maxHandoffs?: number;
  /** Stop two agents bouncing the conversation back and forth three times (default true). */
  detectCycles?: boolean;
  /** The next agent sees the whole thread (default true), or only the request and the latest handoff. */
  passFullHistory?: boolean;
  /** A session's next message goes to the agent that answered last (default true), else to `entryAgent`. */
  resumeLastAgent?: boolean;
  /** Where sessions are kept (default: in memory). */
  sessions?: SessionStore;
  name?: string;
}

/** One member of a swarm, ready to run: the peer, the handoff tools it gets, its input filter. */
export interface Member extends Peer {
  handoffTools: Tool[];
  inputFilter: InputFilter | undefined;
}

/** Validated options with defaults applied. */
export interface ResolvedSwarmOptions {
  name: string;
  entryAgent: string;
  members: Map<string, Member>;
  maxHandoffs: number;
  detectCycles: boolean;
  passFullHistory: boolean;
  resumeLastAgent: boolean;
  sessions: SessionStore;
}

const typedPeerName = /^[a-zA-Z0-9_-]{1,52}$/;

/** Checks every option (throwing `ConfigError` naming it) and builds each member's handoff tools. */
export function resolveSwarmOptions(options: SwarmOptions): ResolvedSwarmOptions {
  const where = 'Team.swarm';
  const entries = Object.entries(options?.agents ?? {});
  if (typeof options?.agents !== 'object' || entries.length === 0) {
    throw new ConfigError(`${where}: agents must name at least one agent.`);
  }
  const peers = entries.map(([name, value]) => toPeer(name, value));
  const names = peers.map((peer) => peer.name);
  const known = (name: unknown) => typeof name === 'string' && names.includes(name);
  if (!known(options.entryAgent)) {
    throw new ConfigError(
      `${where}: entryAgent ${JSON.stringify(options.entryAgent)} is not one of the agents (${names.join(', ')}).`,
    );
  }
  const targets = allowedTargets(names, options.handoffs);
  const maxHandoffs = options.maxHandoffs ?? 8;
  if (!Number.isInteger(maxHandoffs) || maxHandoffs < 1) {
    throw new ConfigError(`${where}: maxHandoffs must be an integer >= 1 (got ${maxHandoffs}).`);
  }
  for (const flag of ['detectCycles', 'passFullHistory', 'resumeLastAgent'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
      throw new ConfigError(`${where}: ${flag} must be true or false.`);
    }
  }
  const sessions = options.sessions ?? new InMemorySessionStore();
  if (typeof sessions.get !== 'function' || typeof sessions.set !== 'function') {
    throw new ConfigError(`${where}: sessions must be a SessionStore (get and set).`);
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '')) {
    throw new ConfigError(`${where}: name must be a non-empty string.`);
  }

  const members = new Map<string, Member>();
  for (const peer of peers) {
    const reachable = peers.filter((p) => targets.get(peer.name)?.includes(p.name));
    const tools = handoffTools(reachable);
    for (const own of peer.agent.tools) {
      if (tools.some((t) => t.name === own.name)) {
        throw new ConfigError(
          `${where}: agent "${peer.name}" has a tool named "${own.name}", which is the name of one of its handoff tools.`,
        );
      }
    }
    members.set(peer.name, { ...peer, handoffTools: tools });
  }
  return {
    name: options.name ?? 'swarm',
    entryAgent: options.entryAgent,
    members,
    maxHandoffs,
    detectCycles: options.detectCycles ?? true,
    passFullHistory: options.passFullHistory ?? true,
    resumeLastAgent: options.resumeLastAgent ?? true,
    sessions,
  };
}

function toPeer(
  name: string,
  value: Agent<unknown> | Handoff,
): Peer & { inputFilter: InputFilter | undefined } {
  if (name.trim() === '') throw new ConfigError('Team.swarm: agents: a name must not be empty.');
  if (value instanceof Agent) {
    return { name, agent: value, description: undefined, inputType: undefined, inputFilter: undefined };
  }
  if (!isHandoff(value)) {
    throw new ConfigError(`Team.swarm: agents.${name} must be an Agent or handoff(agent, options).`);
  }
  if (value.inputType && !typedPeerName.test(name)) {
    throw new ConfigError(
      `Team.swarm: agents.${name} has an inputType, so its name becomes the tool ${JSON.stringify(transferToolName(name))}: use 1 to 52 letters, digits, "_" or "-".`,
    );
  }
  return {
    name,
    agent: value.agent,
    description: value.description,
    inputType: value.inputType,
    inputFilter: value.inputFilter,
  };
}

// Everyone may reach everyone but itself, unless a map draws the paths; a name the map leaves out
// may reach no one.
function allowedTargets(names: string[], map: Record<string, string[]> | undefined): Map<string, string[]> {
  if (map === undefined) return new Map(names.map((name) => [name, names.filter((other) => other !== name)]));
  if (typeof map !== 'object' || map === null) {
    throw new ConfigError('Team.swarm: handoffs must map agent names to arrays of agent names.');
  }
  const targets = new Map<string, string[]>();
  for (const [from, to] of Object.entries(map)) {
    if (!names.includes(from)) {
      throw new ConfigError(
        `Team.swarm: handoffs names "${from}", which is not one of the agents (${names.join(', ')}).`,
      );
    }
    if (!Array.isArray(to))
      throw new ConfigError(`Team.swarm: handoffs.${from} must be an array of agent names.`);
    for (const target of to) {
      if (target === from) throw new ConfigError(`Team.swarm: handoffs.${from} lists "${from}" itself.`);
      if (!names.includes(target)) {
        throw new ConfigError(
          `Team.swarm: handoffs.${from} names "${target}", which is not one of the agents (${names.join(', ')}).`,
        );
      }
    }
    targets.set(from, [...new Set(to)]);
  }
  return targets;
}
