import { type Agent, type Tool, tool } from '@swarm/core';
import { z } from 'zod';
import { formatArguments } from './history.js';

/** A member of the swarm as the handoff tools see it: its name, what it is for, how to reach it. */
export interface Peer {
  name: string;
  agent: Agent<unknown>;
  description: string | undefined;
  inputType: z.ZodObject | undefined;
}

/** What a handoff tool returns to the swarm: who takes over, and with what message. */
export interface HandoffCall {
  to: string;
  message: string;
  /** The validated arguments of a typed handoff. */
  arguments?: Record<string, unknown>;
}

/** The generic handoff tool's name. */
export const genericHandoffName = 'handoff';

/** The name of the tool that hands off to a typed peer. */
export function transferToolName(peer: string): string {
  return `transfer_to_${peer}`;
}

/**
 * The handoff tools of an agent that may reach `targets`: `transfer_to_<name>` for each typed peer,
 * and one generic `handoff(target, message)` whose target is limited to the untyped peers.
 */
export function handoffTools(targets: readonly Peer[]): Tool[] {
  const untyped = targets.filter((peer) => peer.inputType === undefined);
  const typed = targets.filter((peer) => peer.inputType !== undefined);
  return [...(untyped.length > 0 ? [genericHandoff(untyped)] : []), ...typed.map(transferTo)];
}

function genericHandoff(peers: Peer[]): Tool {
  const names = peers.map((peer) => peer.name) as [string, ...string[]];
  return tool({
    name: genericHandoffName,
    description: `Pass the conversation to a peer better placed to answer; your turn ends at once. Peers:\n${peers.map((peer) => `- ${summary(peer)}`).join('\n')}`,
    parameters: z.object({
      target: z.enum(names).describe('The peer that takes over.'),
      message: z.string().describe('What the peer needs to know: the request and what you found so far.'),
    }),
    endsRun: true,
    execute: ({ target, message }): HandoffCall => ({ to: target, message }),
  });
}

function transferTo(peer: Peer): Tool {
  return tool({
    name: transferToolName(peer.name),
    description: `Pass the conversation to ${summary(peer)}. Your turn ends at once.`,
    parameters: peer.inputType!,
    endsRun: true,
    execute: (args): HandoffCall => ({ to: peer.name, message: formatArguments(args), arguments: args }),
  });
}

function summary(peer: Peer): string {
  const about = peer.description ?? peer.agent.description ?? peer.agent.instructions?.split('\n')[0];
  return about ? `${peer.name}: ${about}` : peer.name;
}
