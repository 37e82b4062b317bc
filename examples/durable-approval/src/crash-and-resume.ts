// Kills a process running the bees workflow while its step 2 is in flight, then resumes the run in
// a new process from the same file journal.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fileJournal } from '@swarm/core';
import type { WorkflowOutcome } from './bees-workflow.js';

const exampleDir = fileURLToPath(new URL('..', import.meta.url));
const worker = fileURLToPath(new URL('./workflow-process.ts', import.meta.url));

/** What happened: how the first process ended, what the journal held then, and the resumed run. */
export interface CrashOutcome {
  signal: NodeJS.Signals | null;
  journaledCalls: number;
  resumed: WorkflowOutcome;
}

/**
 * Runs the workflow in a child process, SIGKILLs it in step 2, and resumes it in another. The
 * processes get `env` (a model configured there is the one they use).
 */
export async function crashAndResume(
  dir: string,
  runId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CrashOutcome> {
  const first = start([dir, runId, '--die-in-step-2'], env);
  await first.waitFor('step 2 started');
  first.child.kill('SIGKILL');
  const { signal } = await first.closed;
  const entries = await fileJournal(dir).read(runId);
  const journaledCalls = entries.filter((e) => e.type === 'model').length;

  const second = start([dir, runId], env);
  const { code, stdout, stderr } = await second.closed;
  if (code !== 0) throw new Error(`the resumed workflow failed (exit ${code}): ${stderr.trim()}`);
  return {
    signal,
    journaledCalls,
    resumed: JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkflowOutcome,
  };
}

// The workflow in a new Node process, with TypeScript through tsx as `pnpm start` runs it.
function start(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { cwd: exampleDir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.split('\n').includes(line)) resolve();
      };
      child.stdout.on('data', check);
      void closed.then(({ code }) =>
        reject(new Error(`the workflow process ended (exit ${code}) before "${line}": ${stderr.trim()}`)),
      );
    });
  return { child, closed, waitFor };
}
