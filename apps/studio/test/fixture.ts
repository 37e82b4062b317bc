// A journaled refund desk: one agent whose refund tool needs approval, run on a file journal
// with a run record beside it, the way `swarm run --journal` leaves a folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Approvals, fileJournal, RunPausedError, type SwarmEvent, tool } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { z } from 'zod';
import type { ResumeRun } from '../src/index.js';

export const task = 'Refund order A1 <script>alert(1)</script>';

function desk(): Agent {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount.',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => `refunded ${amount}`,
  });
  const model = new ScriptedModel([], {
    id: 'mock:desk',
    fallback: respond((request) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length > 0) return `Done: ${results.map((m) => m.content).join(' | ')}`;
      return { text: '', toolCalls: [{ id: 'call_0', name: 'refund', arguments: { amount: 42 } }] };
    }),
  });
  return new Agent({ name: 'desk', instructions: 'You refund orders.', model, tools: [refund] });
}

/** Runs the desk as `runId` in `dir` (with `approvals`); resolves when it ends or pauses. */
export async function runDesk(
  dir: string,
  runId: string,
  approvals?: Approvals,
  onEvent?: (event: SwarmEvent) => void,
): Promise<void> {
  try {
    await desk().run(task, {
      journal: fileJournal(dir),
      runId,
      ...(approvals && { approvals }),
      ...(onEvent && { onEvent }),
    });
  } catch (error) {
    if (!(error instanceof RunPausedError)) throw error;
  }
}

/** A journal folder holding run `runId` of the desk, paused on its refund. */
export async function pausedDesk(runId = 'run-1'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-'));
  writeFileSync(join(dir, '.swarm-journal'), `${JSON.stringify({ swarmJournalDir: 1 })}\n`);
  writeFileSync(
    join(dir, `${runId}.run.json`),
    JSON.stringify({
      swarmRun: 1,
      runId,
      specFile: 'desk.yaml',
      spec: { type: 'agent', name: 'desk' },
      task,
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
  );
  await runDesk(dir, runId);
  return dir;
}

/** What the studio resumes runs with in the tests: the desk again, from its journal. */
export const resumeDesk: ResumeRun = (run, approvals, onEvent) =>
  runDesk(run.journal, run.id, approvals, onEvent);
