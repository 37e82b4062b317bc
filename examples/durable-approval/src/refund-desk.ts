// A refund desk: triage hands the customer to billing, which looks the order up and refunds it.
// A refund over 100 EUR waits for a person: the run pauses, and goes on once someone decides.
import {
  Agent,
  type Approvals,
  isPause,
  type Journal,
  type Model,
  type PendingApproval,
  tool,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { Team } from '@swarm/handoff';
import { z } from 'zod';

export const task = 'My order A-1042 arrived broken. I would like my money back.';

const orders: Record<string, { item: string; amount: number; status: string }> = {
  'A-1042': { item: 'espresso machine', amount: 249, status: 'delivered, reported broken' },
};

/** Refunds paid out, by the tool call that asked for each: a second execution would show here. */
export type Ledger = Map<string, { orderId: string; amount: number }>;

/** The desk's two models: one for each agent. */
export interface DeskModels {
  triage: Model;
  billing: Model;
}

/** Builds the desk; `ledger` records every refund the tool pays out. */
export function buildDesk(models: DeskModels, ledger: Ledger) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks an order up: item, amount paid in EUR, status.',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => JSON.stringify(orders[orderId] ?? { error: `no order ${orderId}` }),
  });
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount in EUR on an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    // Small refunds go through; a larger one waits for a person's approval.
    needsApproval: ({ amount }) => amount > 100,
    execute: ({ orderId, amount }, ctx) => {
      // The tool call id is the same on every resume (it comes from the journaled response): the
      // payment provider's idempotency key, should a crash ever make this run twice.
      ledger.set(ctx.toolCallId, { orderId, amount });
      return `Refunded ${amount} EUR on ${orderId}.`;
    },
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'You greet customers. Hand every refund request to billing with a one-line summary.',
    model: models.triage,
  });
  const billing = new Agent({
    name: 'billing',
    instructions:
      'You handle refunds. Look the order up, refund the amount paid when the item arrived broken, then tell the customer in one sentence.',
    model: models.billing,
    tools: [lookupOrder, refund],
  });
  return Team.swarm({ name: 'refund-desk', agents: { triage, billing }, entryAgent: 'triage' });
}

/** Scripted agents that play their parts from what they are asked (so a resumed run meets the same answers). */
export function scriptedDesk(): DeskModels {
  return {
    triage: new ScriptedModel([], {
      id: 'mock:triage',
      fallback: respond(() => ({
        text: '',
        toolCalls: [
          {
            name: 'handoff',
            arguments: { target: 'billing', message: 'Order A-1042 arrived broken: refund.' },
          },
        ],
      })),
    }),
    billing: new ScriptedModel([], {
      id: 'mock:billing',
      fallback: respond((request) => {
        const last = request.messages.at(-1);
        if (last?.role !== 'tool') {
          return { text: '', toolCalls: [{ name: 'lookup_order', arguments: { orderId: 'A-1042' } }] };
        }
        if (String(last.content).includes('espresso machine')) {
          return { text: '', toolCalls: [{ name: 'refund', arguments: { orderId: 'A-1042', amount: 249 } }] };
        }
        return String(last.content).startsWith('Refunded')
          ? `${last.content} Sorry about the machine; the money is on its way.`
          : `I could not refund it: ${last.content}`;
      }),
    }),
  };
}

/** What the refund desk did: where it paused, and how the approved run ended. */
export interface DeskOutcome {
  /** The calls the first run waited for (empty when the model never asked for a large refund). */
  pending: PendingApproval[];
  /** The answer once approved. */
  output: string;
  lastAgent: string;
  replayedCalls: number;
  liveCalls: number;
  /** Refunds paid out after the approved run, and after running it once more from the journal. */
  refundsAfterApproval: number;
  refundsAfterReplay: number;
}

/**
 * Runs the desk on `journal` until it pauses, approves what it waits for (as a person would, later,
 * in any process), resumes it, then runs it once more from the journal to show nothing is paid twice.
 */
export async function refundDesk(
  models: () => DeskModels,
  journal: Journal,
  runId: string,
  onPause: (pending: readonly PendingApproval[]) => void = () => {},
): Promise<DeskOutcome> {
  const ledger: Ledger = new Map();
  let pending: PendingApproval[] = [];
  let approvals: Approvals | undefined;
  try {
    const done = await buildDesk(models(), ledger).run(task, { journal, runId });
    return outcome(done, [], ledger.size, ledger.size);
  } catch (error) {
    if (!isPause(error)) throw error;
    pending = error.pending;
    onPause(pending);
    approvals = Object.fromEntries(pending.map((p) => [p.id, { approved: true }]));
  }
  const approved = await buildDesk(models(), ledger).run(task, { journal, runId, approvals });
  const afterApproval = ledger.size;
  await buildDesk(models(), ledger).run(task, { journal, runId });
  return outcome(approved, pending, afterApproval, ledger.size);
}

function outcome(
  result: { output: string; lastAgent: string; replayedCalls?: number; liveCalls?: number },
  pending: PendingApproval[],
  refundsAfterApproval: number,
  refundsAfterReplay: number,
): DeskOutcome {
  return {
    pending,
    output: result.output,
    lastAgent: result.lastAgent,
    replayedCalls: result.replayedCalls ?? 0,
    liveCalls: result.liveCalls ?? 0,
    refundsAfterApproval,
    refundsAfterReplay,
  };
}
