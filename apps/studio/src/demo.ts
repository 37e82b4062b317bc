import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  type Approvals,
  asTool,
  fileJournal,
  RunPausedError,
  type SwarmEvent,
  tool,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { z } from 'zod';
import type { ResumeRun } from './server.js';

/** The demo's runs: each a scripted agent (no key, no network), journaled like any run. */
const demos: Record<string, { task: string; build: () => Agent }> = {
  'refund-desk': { task: 'Refund order A1: the parcel never came.', build: refundDesk },
  'research-team': { task: 'Why do bees matter to farming?', build: researchTeam },
};

function refundDesk(): Agent {
  const refund = tool({
    name: 'refund',
    description: 'Refunds an amount to the customer.',
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ order, amount }) => `refunded ${amount} EUR on order ${order}`,
  });
  const model = new ScriptedModel([], {
    id: 'demo:desk',
    fallback: respond((request) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length > 0) return `Done: ${results.map((m) => m.content).join(' | ')}`;
      return {
        text: 'The order is paid and was never delivered: I refund it.',
        toolCalls: [{ id: 'call_0', name: 'refund', arguments: { order: 'A1', amount: 42 } }],
      };
    }),
  });
  return new Agent({ name: 'desk', instructions: 'You refund orders.', model, tools: [refund] });
}

function researchTeam(): Agent {
  const researcher = new Agent({
    name: 'researcher',
    description: 'Finds the facts.',
    instructions: 'Give the two facts that matter most.',
    model: new ScriptedModel([], {
      id: 'demo:researcher',
      fallback: respond(
        () => 'Bees pollinate about a third of the crops we eat; yields of fruit and nuts fall without them.',
      ),
    }),
  });
  const lead = new ScriptedModel([], {
    id: 'demo:lead',
    fallback: respond((request) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length > 0) return `Bees matter: ${results.map((m) => m.content).join(' ')}`;
      return {
        text: '',
        toolCalls: [{ id: 'call_0', name: 'researcher', arguments: { task: 'bees and farming' } }],
      };
    }),
  });
  return new Agent({
    name: 'lead',
    instructions: 'You answer with your researcher.',
    model: lead,
    tools: [asTool(researcher)],
  });
}

/**
 * Runs demo run `runId` of `dir` (its record names the demo) with `approvals`, to its end or pause,
 * its events to `onEvent`.
 */
export async function runDemo(
  dir: string,
  runId: string,
  approvals: Approvals = {},
  onEvent?: (event: SwarmEvent) => void,
): Promise<void> {
  const record = JSON.parse(readFileSync(join(dir, `${runId}.run.json`), 'utf8')) as {
    spec: { name: string };
    task: string;
  };
  const demo = demos[record.spec.name];
  if (!demo) throw new Error(`run ${runId} is not a demo run`);
  try {
    await demo.build().run(record.task, {
      journal: fileJournal(dir),
      runId,
      approvals,
      ...(onEvent && { onEvent }),
    });
  } catch (error) {
    if (!(error instanceof RunPausedError)) throw error;
  }
}

/** How a studio on demo folders resumes their runs. */
export const resumeDemo: ResumeRun = (run, approvals, onEvent) =>
  runDemo(run.journal, run.id, approvals, onEvent);

/**
 * Writes a journal folder of demo runs into `dir`: a refund desk paused on a refund that waits for
 * approval, the same desk approved (done), and a lead agent that asks a researcher (a nested run).
 */
export async function writeDemoJournal(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.swarm-journal'), `${JSON.stringify({ swarmJournalDir: 1 })}\n`);
  const runs: [string, string, Approvals | 'approve'][] = [
    ['demo-refund-done', 'refund-desk', 'approve'],
    ['demo-research', 'research-team', {}],
    ['demo-refund-paused', 'refund-desk', {}],
  ];
  let minute = 0;
  for (const [runId, name] of runs) {
    const demo = demos[name]!;
    writeFileSync(
      join(dir, `${runId}.run.json`),
      `${JSON.stringify(
        {
          swarmRun: 1,
          runId,
          specFile: `${name}.yaml`,
          spec: { topology: 'Agent', name },
          task: demo.task,
          createdAt: new Date(Date.UTC(2026, 0, 1, 9, minute++)).toISOString(),
        },
        null,
        2,
      )}\n`,
    );
  }
  for (const [runId, , approvals] of runs) {
    await runDemo(dir, runId);
    if (approvals === 'approve') {
      const { waitingApprovals } = await import('@swarm/core');
      const pending = waitingApprovals(await fileJournal(dir).read(runId));
      await runDemo(dir, runId, Object.fromEntries(pending.map((p) => [p.id, { approved: true }])));
    }
  }
}
