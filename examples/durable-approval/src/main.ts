// Durable runs and human approval (@swarm/core's journal):
// 1. A refund desk whose refund tool needs a person's approval: the run pauses, says what waits,
//    and once approved goes on from its journal; the refund is paid once.
// 2. A workflow killed (SIGKILL) mid-run, resumed in a new process: the finished step is not paid
//    for again.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, scripted agents play their parts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredModel, configureModelHint, fileJournal, resolveModel } from '@swarm/core';
import { crashAndResume } from './crash-and-resume.js';
import { type DeskModels, refundDesk, scriptedDesk, task } from './refund-desk.js';

const configured = configuredModel();
if (!configured) {
  console.log('No model configured: scripted agents play their parts.');
  console.log(`To run it with a model: ${configureModelHint}\n`);
}

try {
  const dir = mkdtempSync(join(tmpdir(), 'durable-approval-'));
  console.log(`Journals in ${dir}\n`);

  console.log('1. Refund desk (triage hands to billing; a refund over 100 EUR needs approval)');
  console.log(`   Customer: ${task}`);
  const models = (): DeskModels => {
    if (!configured) return scriptedDesk();
    const model = resolveModel(configured);
    return { triage: model, billing: model };
  };
  const desk = await refundDesk(models, fileJournal(dir), 'refund-A-1042', (pending) => {
    console.log(`   Paused: the run waits for approval of ${pending.length} call(s):`);
    for (const p of pending) {
      console.log(
        `     ${p.id}  ${p.agent} → ${p.tool} ${JSON.stringify(p.arguments)}  (in ${p.path.join(' > ')})`,
      );
    }
    console.log('   A person approves; the run resumes from its journal.');
  });
  if (desk.pending.length === 0)
    console.log('   The model asked for no refund over 100 EUR: nothing waited.');
  console.log(`   ${desk.lastAgent}: ${desk.output}`);
  console.log(`   Model calls: ${desk.replayedCalls} replayed from the journal, ${desk.liveCalls} live`);
  console.log(
    `   Refunds paid: ${desk.refundsAfterApproval}; after running it once more from the journal: ${desk.refundsAfterReplay}\n`,
  );

  console.log(
    '2. Workflow killed mid-run (SequentialWorkflow: researcher → writer → editor, on a file journal)',
  );
  const crash = await crashAndResume(dir, 'bees-note');
  console.log(
    `   The process was killed (${crash.signal}) during step 2's model call; the journal held ${crash.journaledCalls} finished call(s).`,
  );
  console.log(`   Resumed in a new process: ${crash.resumed.output}`);
  console.log(
    `   Model calls: ${crash.resumed.replayedCalls} replayed from the journal (step 1, not paid again), ${crash.resumed.liveCalls} live`,
  );
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
