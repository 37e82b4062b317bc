import type { Message } from '@swarm/core';
import { z } from 'zod';

/**
 * One step of a swarm's shared thread, as plain data: the user's request, a tool an agent ran, what
 * an agent said, or a handoff. Sessions store these; each agent sees them rendered by `toMessages`.
 */
export type HistoryItem =
  | { type: 'request'; content: string }
  | { type: 'tool'; agent: string; tool: string; arguments: Record<string, unknown>; result: string }
  | { type: 'text'; agent: string; content: string }
  | { type: 'handoff'; from: string; to: string; message: string; arguments?: Record<string, unknown> };

/** Validates stored history (for session stores reading it back from disk). */
export const historyItemSchema: z.ZodType<HistoryItem> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), content: z.string() }),
  z.object({
    type: z.literal('tool'),
    agent: z.string(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    result: z.string(),
  }),
  z.object({ type: z.literal('text'), agent: z.string(), content: z.string() }),
  z.object({
    type: z.literal('handoff'),
    from: z.string(),
    to: z.string(),
    message: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/**
 * The thread as typed turns seen by `forAgent`: its own steps become `assistant` turns, other
 * agents' steps `user` turns carrying their name, and the user's requests plain `user` turns.
 */
export function toMessages(history: readonly HistoryItem[], forAgent: string): Message[] {
  return history.map((item): Message => {
    if (item.type === 'request') return { role: 'user', content: item.content };
    const author = item.type === 'handoff' ? item.from : item.agent;
    const content = describeItem(item);
    return author === forAgent ? { role: 'assistant', content } : { role: 'user', name: author, content };
  });
}

/** The text of one step, with the seed's markers: `[triage called lookup_invoice({...}) → ...]`, `[Handoff: a → b] ...`. */
export function describeItem(item: HistoryItem): string {
  switch (item.type) {
    case 'request':
    case 'text':
      return item.content;
    case 'tool':
      return `[${item.agent} called ${item.tool}(${formatArguments(item.arguments)}) → ${item.result}]`;
    case 'handoff':
      return `[Handoff: ${item.from} → ${item.to}] ${item.message}`;
  }
}

/** JSON with a space after `:` and `,` (`{"invoice_id": "42"}`), the way the markers read in the seed. */
export function formatArguments(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatArguments).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${formatArguments(v)}`);
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
