import type { AgentResult, Message, RunContext } from '@swarm/core';
import { messageText } from '@swarm/core';
import type { HandoffCall } from './handoff-tools.js';
import type { HistoryItem } from './history.js';
import type { Member } from './swarm-options.js';

/** One agent's turn: what it added to the thread, and the handoff that ended it, if one did. */
export interface Turn {
  items: HistoryItem[];
  handoff: HandoffCall | undefined;
  output: string;
}

/**
 * Runs the active agent with its own tools plus its handoff tools (none when `canHandOff` is
 * false). A handoff ends the turn at once; handoffs after it in the same response are not run.
 */
export async function runTurn(
  member: Member,
  messages: Message[],
  context: RunContext,
  canHandOff: boolean,
): Promise<Turn> {
  const tools = canHandOff ? member.handoffTools : [];
  const result = await member.agent.run(messages, { context, tools });
  const handoffNames = new Set(tools.map((t) => t.name));
  const endedBy = result.endedBy;
  const handoff = endedBy && handoffNames.has(endedBy.call.name) ? (endedBy.value as HandoffCall) : undefined;
  return { items: turnItems(member.name, result, handoffNames, handoff), handoff, output: result.output };
}

// The turn as the thread keeps it: texts, tool calls with their results, and the handoff marker.
// Calls answered as not executed and failed handoff attempts are left out: they changed nothing.
function turnItems(
  agent: string,
  result: AgentResult<unknown>,
  handoffNames: Set<string>,
  handoff: HandoffCall | undefined,
): HistoryItem[] {
  const items: HistoryItem[] = [];
  let toolIndex = 0;
  for (const message of result.messages) {
    const text = message.role === 'assistant' ? messageText(message) : '';
    if (text.trim() !== '') {
      items.push({ type: 'text', agent, content: text });
    }
    if (message.role !== 'tool') continue;
    const record = result.toolCalls[toolIndex++];
    if (!record || record.skipped) continue;
    const { call } = record;
    if (!handoffNames.has(call.name)) {
      items.push({ type: 'tool', agent, tool: call.name, arguments: call.arguments, result: record.result });
    } else if (handoff && record === result.endedBy) {
      const { to, message: text, arguments: args } = handoff;
      items.push({ type: 'handoff', from: agent, to, message: text, ...(args ? { arguments: args } : {}) });
    }
  }
  return items;
}
