import type { z } from 'zod';
import type { Agent, AgentResult } from '../agent/agent.js';
import { turnsAsText } from '../kernel/content-parts.js';
import { ConfigError } from '../kernel/errors.js';
import type { RunContext } from '../kernel/run-context.js';
import type { Tool } from '../primitives/tool.js';
import type { Topology, TopologyResult } from './topology.js';

export { turnsAsText } from '../kernel/content-parts.js';

import type { Message, ToolChoice, Usage } from '../contracts/model.js';

/**
 * Anything a multi-member topology can put to work: an Agent, or a whole Topology, which gets the
 * task as text and runs nested in the calling run.
 */
export type Member = Agent<unknown> | Topology;

/** What running one member gave: its text, what it cost, and the member's own result. */
export interface MemberResult {
  output: string;
  /** The validated object when the call was given `outputType`; else the text. */
  finalOutput: unknown;
  usage: Usage;
  llmCalls: number;
  /** The Agent's or the Topology's whole result. */
  result: AgentResult<unknown> | TopologyResult;
}

/** Per-call settings for an Agent member; a Topology member ignores them. */
export interface MemberRunOptions {
  /** Replaces the agent's instructions for this call. */
  instructions?: string;
  /** Extra tools for this call. */
  tools?: Tool[];
  toolChoice?: ToolChoice;
  /**
   * The member's answer as a validated object of this schema (`finalOutput`): how a topology whose
   * answer is one member's types it. Agents only: a Topology member types its answer itself.
   */
  outputType?: z.ZodObject;
}

/** True for a Topology (it has `type` and `stream`), false for an Agent. */
export function isTopology(member: unknown): member is Topology {
  return (
    typeof member === 'object' &&
    member !== null &&
    typeof (member as Topology).type === 'string' &&
    typeof (member as Topology).run === 'function' &&
    typeof (member as Topology).stream === 'function'
  );
}

/** True for an Agent or a Topology. */
export function isMember(value: unknown): value is Member {
  if (isTopology(value)) return true;
  const agent = value as Agent;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof agent.name === 'string' &&
    typeof agent.run === 'function' &&
    typeof agent.model === 'object'
  );
}

/** The name a member goes by in results and traces. */
export function memberName(member: Member): string {
  return member.name;
}

/**
 * Runs one member as part of `context`'s run. An Agent runs in the same run (its calls, usage and
 * events are the run's own); a Topology runs nested in it (`parent: context`), given the input as
 * text. Either way the result has the member's own output, usage and calls.
 */
export async function runMember(
  member: Member,
  input: string | Message[],
  context: RunContext,
  options: MemberRunOptions = {},
): Promise<MemberResult> {
  if (isTopology(member)) {
    if (options.outputType !== undefined) {
      throw new ConfigError(
        `outputType types an Agent's answer, but "${member.name}" is a ${member.type}: give that topology its own outputType, or make the answering member an Agent.`,
      );
    }
    const result = await member.run(typeof input === 'string' ? input : turnsAsText(input), {
      parent: context,
    });
    const finalOutput = result.finalOutput ?? result.output;
    return { output: result.output, finalOutput, usage: result.usage, llmCalls: result.llmCalls, result };
  }
  const result = await member.run(input, { ...options, context });
  const { output, finalOutput, usage, llmCalls } = result;
  return { output, finalOutput, usage, llmCalls, result };
}

/** A turn written by another member, as the receiving agent should see it: a `user` turn with a name. */
export function memberTurn(name: string, content: string): Message {
  return { role: 'user', name, content };
}

/**
 * Checks a topology's `members` option: a non-empty array (at least `min`) of Agents or
 * Topologies with distinct names. Throws a ConfigError naming the owner and the option.
 */
export function validateMembers(
  members: unknown,
  owner: string,
  options: { option?: string; min?: number } = {},
): Member[] {
  const { option = 'agents', min = 1 } = options;
  if (!Array.isArray(members)) {
    throw new ConfigError(`${owner}: ${option} must be an array of Agents or Topologies.`);
  }
  if (members.length < min) {
    throw new ConfigError(`${owner}: ${option} must hold at least ${min} member(s) (got ${members.length}).`);
  }
  const seen = new Set<string>();
  members.forEach((member, i) => {
    if (!isMember(member)) {
      throw new ConfigError(`${owner}: ${option}[${i}] is neither an Agent nor a Topology.`);
    }
    if (seen.has(member.name)) {
      throw new ConfigError(
        `${owner}: two members of ${option} are named "${member.name}"; names must be unique.`,
      );
    }
    seen.add(member.name);
  });
  return [...members];
}
