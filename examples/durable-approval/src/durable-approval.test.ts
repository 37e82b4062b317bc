import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBeesWorkflow } from './bees-workflow.js';
import { crashAndResume } from './crash-and-resume.js';

const exampleDir = fileURLToPath(new URL('..', import.meta.url));
// No model configured in the processes the tests start, whatever the machine has: scripted agents.
const offline = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

/** Runs the example as `pnpm start` does, with no model configured (no key leaks in). */
function start(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: exampleDir,
      env: offline,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('durable-approval', () => {
  it('prints the paused refund, pays it once approved, and resumes the killed workflow without repeating step 1', async () => {
    const { code, stdout, stderr } = await start();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n').map((l) => l.trim());
    const after = (heading: string) => lines.slice(lines.indexOf(heading) + 1);
    expect(
      after('1. Refund desk (triage hands to billing; a refund over 100 EUR needs approval)').slice(0, 8),
    ).toEqual([
      'Customer: My order A-1042 arrived broken. I would like my money back.',
      'Paused: the run waits for approval of 1 call(s):',
      expect.stringMatching(
        /^[0-9a-f]{16} {2}billing → refund \{"orderId":"A-1042","amount":249\} {2}\(in Swarm\)$/,
      ),
      'A person approves; the run resumes from its journal.',
      'billing: Refunded 249 EUR on A-1042. Sorry about the machine; the money is on its way.',
      'Model calls: 3 replayed from the journal, 1 live',
      'Refunds paid: 1; after running it once more from the journal: 1',
      '',
    ]);
    expect(
      after(
        '2. Workflow killed mid-run (SequentialWorkflow: researcher → writer → editor, on a file journal)',
      ),
    ).toEqual([
      "The process was killed (SIGKILL) during step 2's model call; the journal held 1 finished call(s).",
      'Resumed in a new process: Bees pollinate a third of our crops: farms without them grow less fruit and fewer nuts.',
      'Model calls: 1 replayed from the journal (step 1, not paid again), 2 live',
      '',
    ]);
  });

  it('a workflow killed in step 2 and resumed ends as an uninterrupted run does', async () => {
    const crashed = await crashAndResume(mkdtempSync(join(tmpdir(), 'durable-crash-')), 'bees', offline);
    const whole = await runBeesWorkflow(mkdtempSync(join(tmpdir(), 'durable-whole-')), 'bees', undefined);
    expect(crashed.signal).toBe('SIGKILL');
    expect(crashed.journaledCalls).toBe(1);
    expect(crashed.resumed.steps).toEqual(whole.steps);
    expect(crashed.resumed).toMatchObject({
      output: whole.output,
      llmCalls: 3,
      replayedCalls: 1,
      liveCalls: 2,
    });
    expect(whole).toMatchObject({ replayedCalls: 0, liveCalls: 3 });
  });
});
