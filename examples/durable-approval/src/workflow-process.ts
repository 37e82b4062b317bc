// One process running the bees workflow: `workflow-process.ts <dir> <run-id> [--die-in-step-2]`.
// With --die-in-step-2 it says so on stdout when step 2's model call starts (step 1's answer is
// journaled by then: the run uses an answer only once it is kept), then waits to be killed.
// Otherwise it prints the outcome as its last line, as JSON.
import { configuredModel, resolveModel } from '@swarm/core';
import { runBeesWorkflow } from './bees-workflow.js';

const [dir, runId, mode] = process.argv.slice(2);
if (!dir || !runId) throw new Error('usage: workflow-process.ts <dir> <run-id> [--die-in-step-2]');
const configured = configuredModel();
const outcome = await runBeesWorkflow(
  dir,
  runId,
  configured ? resolveModel(configured) : undefined,
  async (n) => {
    if (mode === '--die-in-step-2' && n === 2) {
      process.stdout.write('step 2 started\n');
      await new Promise(() => {}); // in flight until the parent kills this process
    }
  },
);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
