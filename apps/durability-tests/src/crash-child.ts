// The process the crash test SIGKILLs: runs `crashRun` on a file journal, on the built packages
// and Node's own type stripping (no loader). It loads, says `ready`, waits for a line on stdin
// (so the test can load the next child while it runs this one), runs, and prints its result.
// Usage: node crash-child.ts <baseURL> <journalDir> <runId> <sideEffectsFile>
import { once } from 'node:events';
import { fileJournal } from '@swarm/core';
import { crashRun, task } from './crash-run.ts';

async function main(): Promise<void> {
  const [baseURL, journalDir, runId, sideEffects] = process.argv.slice(2) as [string, string, string, string];
  const run = crashRun(baseURL, sideEffects);
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  process.stdin.destroy();
  const result = await run.run(task, { journal: fileJournal(journalDir), runId });
  process.stdout.write(`${JSON.stringify({ output: result.output, llmCalls: result.llmCalls })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
