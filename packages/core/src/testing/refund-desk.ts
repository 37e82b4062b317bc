import { z } from 'zod';
import { Agent, messageText, type Tool, tool } from '../index.js';
import { respond, ScriptedModel } from './scripted-model.js';

/** Options of `refundDesk`. */
export interface RefundDeskOptions {
  /** The order the clerk is asked to refund, and calls the tool for (default `'A-17'`). */
  order?: string;
  /** The agent's name (default `'clerk'`). */
  name?: string;
}

/** What `refundDesk` makes: the agent, its tool, its model, and what the tool really refunded. */
export interface RefundDesk {
  /** The clerk: one agent with the `refund` tool, on `model`. */
  agent: Agent;
  /** The `refund` tool (`needsApproval: true`): pushes the order onto `refunds`, answers `Order <order> refunded.`. */
  refund: Tool<z.ZodObject<{ order: z.ZodString }>, string>;
  /** The clerk's scripted model, to read what it was sent (`model.lastCall`, `model.calls`). */
  model: ScriptedModel;
  /** The orders the tool really refunded, in order: empty while the call waits or after a rejection. */
  refunds: string[];
}

/**
 * A help desk whose run pauses for a person: a clerk (one agent, a ScriptedModel) that calls its
 * `refund` tool for the order, a tool that needs approval, then says what happened. Approved, the
 * tool runs and the clerk answers `Done: order <order> is refunded.`; rejected (the reason is
 * what the model reads), the tool never runs and the clerk answers `The refund of <order> was not
 * made.`. The model answers any number of calls, so one desk serves a run and its resumes, and a
 * run on a new journal pauses again.
 *
 * ```ts
 * const { agent, refunds } = refundDesk();
 * await expect(agent.run('Refund order A-17.', { journal })).rejects.toThrow(RunPausedError);
 * ```
 *
 * The shared fixture of the approval tests (UI streams, MCP servers): built only from
 * `ScriptedModel` and core's public API.
 */
export function refundDesk(options: RefundDeskOptions = {}): RefundDesk {
  const order = options.order ?? 'A-17';
  const refunds: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order; a person approves each refund first.',
    parameters: z.object({ order: z.string() }),
    needsApproval: true,
    execute: ({ order: which }) => {
      refunds.push(which);
      return refunded(which);
    },
  });
  const model = new ScriptedModel([], {
    id: 'scripted-refund-clerk',
    // The clerk asks for the refund until the tool has answered, then says what this run's call
    // did: the tool's own answer, or anything else (a rejection's reason, an error).
    fallback: respond((request) => {
      const last = request.messages.at(-1);
      if (last?.role !== 'tool') {
        return { text: '', toolCalls: [{ name: 'refund', arguments: { order } }] };
      }
      return messageText(last) === refunded(order)
        ? `Done: order ${order} is refunded.`
        : `The refund of ${order} was not made.`;
    }),
  });
  const agent = new Agent({
    name: options.name ?? 'clerk',
    instructions: 'Refund the order the customer names with the refund tool, then say what happened.',
    model,
    tools: [refund],
  });
  return { agent, refund, model, refunds };
}

const refunded = (order: string) => `Order ${order} refunded.`;
