import { createInterface } from 'node:readline/promises';
import type { Approvals, PendingApproval } from '@swarm/core';
import { describePending } from './pause-notice.js';

/** Asks a person about the calls a paused run waits for; undefined when they stop answering. */
export type AskApprovals = (pending: readonly PendingApproval[]) => Promise<Approvals | undefined>;

/**
 * Asks y/n for each pending call on a terminal (`input` the keyboard, `output` where the questions
 * go), and for a refusal an optional reason the model reads. End of input or Ctrl-C stops asking:
 * the run stays paused, and what it waits for is printed as when no one is there to ask.
 */
export function terminalApprovals(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): AskApprovals {
  return async (pending) => {
    const rl = createInterface({ input, output, terminal: true });
    const stopped = new AbortController();
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => stopped.abort());
    const ask = async (question: string): Promise<string | undefined> => {
      try {
        return await rl.question(question, { signal: stopped.signal });
      } catch (error) {
        if (stopped.signal.aborted) return undefined;
        throw error;
      }
    };
    try {
      const approvals: Approvals = {};
      for (const [i, p] of pending.entries()) {
        output.write(`\nApproval ${i + 1} of ${pending.length}: ${describePending(p)}\n`);
        let answer: string | undefined;
        do {
          answer = (await ask('Approve this call? [y/n] '))?.trim().toLowerCase();
          if (answer === undefined) return undefined;
        } while (!['y', 'yes', 'n', 'no'].includes(answer));
        if (answer.startsWith('y')) {
          approvals[p.id] = { approved: true };
          continue;
        }
        const reason = (await ask('Reason, for the model (Enter for none): '))?.trim();
        if (reason === undefined) return undefined;
        approvals[p.id] = { approved: false, ...(reason !== '' && { message: reason }) };
      }
      return approvals;
    } finally {
      rl.close();
    }
  };
}
