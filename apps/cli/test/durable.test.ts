import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PendingApproval } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  refundDeskModel,
  specsDir,
  swarm,
  swarmBin,
  swarmInTerminal,
  testSpecsDir,
} from './swarm-process.js';

type Message = { role: string; content: string };

let server: MockProviderServer;
let env: Record<string, string>;
const root = mkdtempSync(join(tmpdir(), 'swarm-durable-'));
const spec = join(testSpecsDir, 'refund-desk.yaml');
let dirs = 0;
const newDir = () => join(root, `journal-${++dirs}`);

beforeAll(async () => {
  server = await mockProviderServer({ handler: refundDeskModel });
  env = {
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
});
afterAll(() => server.close());

/** What the tool answered the clerk, in each request since `from` (one entry per request that had one). */
const toolAnswers = (from: number) =>
  server.requests
    .slice(from)
    .flatMap((r) => (r.body.messages as Message[]).filter((m) => m.role === 'tool').map((m) => m.content));

interface Paused {
  paused: true;
  runId: string;
  pending: PendingApproval[];
  llmCalls: number;
  replayedCalls: number;
  liveCalls: number;
  resume: string;
}

/** Runs the desk with a journal until it pauses; its JSON, its journal directory and the server's count before it. */
async function pausedRun(extra: string[] = []) {
  const dir = newDir();
  const before = server.requests.length;
  const ran = await swarm(['run', spec, '--journal', dir, '--json', ...extra], env);
  expect(ran.code).toBe(0);
  return { dir, before, ran, paused: JSON.parse(ran.stdout) as Paused };
}

describe('swarm run --journal: a run that waits for approval pauses, and says how to resume it', () => {
  it('pauses at the call that needs approval, exits 0, and journals the run under a printed run id', async () => {
    const { dir, before, ran, paused } = await pausedRun();
    expect(paused).toMatchObject({ paused: true, llmCalls: 1, replayedCalls: 0, liveCalls: 1 });
    expect(paused.runId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(paused.pending).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        runId: paused.runId,
        path: ['SequentialWorkflow'],
        agent: 'clerk',
        tool: 'calculator',
        arguments: { expression: '40 * 2' },
        argumentsHash: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(paused.resume).toBe(`swarm resume ${dir} ${paused.runId} --approve ${paused.pending[0]!.id}`);
    // The run id is said before the first call, so that a crash can be resumed.
    expect(ran.stderr).toBe(
      `run ${paused.runId}, journaled in ${dir} (after a crash: swarm resume ${dir} ${paused.runId})\n`,
    );
    // The run's lease file stays (given back): the next holder's token follows it.
    expect(readdirSync(dir).sort()).toEqual(
      [
        '.swarm-journal',
        `${paused.runId}.jsonl`,
        `${paused.runId}.lock.1`,
        `${paused.runId}.run.json`,
      ].sort(),
    );
    // The calculator did not run: one call was made, and no tool answer reached a model.
    expect(server.requests.length - before).toBe(1);
    expect(toolAnswers(before)).toEqual([]);
  });

  it('prints each pending call and the exact resume command, which approves it: the tool runs once, finished calls are not made again', async () => {
    const dir = newDir();
    const before = server.requests.length;
    const ran = await swarm(['run', spec, '--journal', dir], env);
    expect(ran.code).toBe(0);
    const [head, call, hint, command, tail, ...rest] = ran.stdout.split('\n');
    const runId = /^Paused: run (\S+) waits for approval of 1 tool call\(s\):$/.exec(head!)?.[1];
    const id =
      /^ {2}([0-9a-f]{16}) {2}clerk → calculator \{"expression":"40 \* 2"\} {2}\(in SequentialWorkflow\)$/.exec(
        call!,
      )?.[1];
    expect(runId).toBeDefined();
    expect(id).toBeDefined();
    expect(hint).toBe('Resume it, approving every call:');
    expect(command).toBe(`  swarm resume ${dir} ${runId} --approve ${id}`);
    expect(tail).toMatch(/^or refuse a call with --reject <id>=<reason>/);
    expect(rest).toEqual(['']);

    const resumed = await swarm([...command!.trim().split(' ').slice(1), '--json'], env);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      runId,
      output: 'Dear customer, your refund is on its way.',
      steps: [
        { agent: 'clerk', output: 'Refund: 80.' },
        { agent: 'writer', output: 'Dear customer, your refund is on its way.' },
      ],
      llmCalls: 3,
      replayedCalls: 1,
      liveCalls: 2,
    });
    // 1 call before the pause, 2 after: the clerk's first call was answered from the journal.
    expect(server.requests.length - before).toBe(3);
    expect(toolAnswers(before)).toEqual(['80']);

    // Once more, nothing is left to do: the whole run replays, no model is called, the tool does not run again.
    const again = server.requests.length;
    const replayed = await swarm(['resume', dir, runId!, '--json'], env);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({
      output: result.output,
      replayedCalls: 3,
      liveCalls: 0,
    });
    expect(server.requests.length).toBe(again);
  });

  it('--reject id=reason answers the model with the reason, and the tool never runs', async () => {
    const { dir, before, paused } = await pausedRun();
    const id = paused.pending[0]!.id;
    const resumed = await swarm(
      ['resume', dir, paused.runId, '--reject', `${id}=over the limit of 50 EUR`],
      env,
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Dear customer, your refund is on its way.\n');
    expect(toolAnswers(before)).toEqual(['over the limit of 50 EUR']);
  });

  it('journals who decided (--by) and shows it on a later resume', async () => {
    const { dir, paused } = await pausedRun();
    const id = paused.pending[0]!.id;
    const resumed = await swarm(
      ['resume', dir, paused.runId, '--approve', id, '--by', 'ana@example.com'],
      env,
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Dear customer, your refund is on its way.\n');
    const again = await swarm(['resume', dir, paused.runId], env);
    expect(again.code).toBe(0);
    const [head, line, answer] = again.stdout.split('\n');
    expect(head).toBe('Decided earlier in run:');
    expect(line).toMatch(
      new RegExp(
        `^ {2}${id} clerk → calculator \\{"expression":"40 \\* 2"\\}: approved by ana@example\\.com at \\d{4}-\\d{2}-\\d{2}T`,
      ),
    );
    expect(answer).toBe('Dear customer, your refund is on its way.');
  });

  it('takes the run id given with --run-id', async () => {
    const { dir, paused } = await pausedRun(['--run-id', 'refund-1234']);
    expect(paused.runId).toBe('refund-1234');
    expect(paused.pending[0]!.runId).toBe('refund-1234');
    expect(existsSync(join(dir, 'refund-1234.jsonl'))).toBe(true);
  });

  it('prints that a paused run without a journal cannot be resumed, and how to run it so it can be', async () => {
    const ran = await swarm(['run', spec], env);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^Paused: run \S+ waits for approval of 1 tool call\(s\):\n/);
    expect(ran.stdout).toContain(
      'The run has no journal, so it cannot be resumed: run it again with --journal <dir>',
    );
  });

  it('reports runId, replayedCalls and liveCalls in --json of a run that finishes', async () => {
    const ran = await swarm(['run', join(specsDir, 'sequential-workflow.yaml'), '--json'], env);
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { runId: string; llmCalls: number };
    expect(result).toMatchObject({
      runId: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/),
      replayedCalls: 0,
    });
    expect(result).toMatchObject({ liveCalls: result.llmCalls });
  });
});

describe('swarm resume after a crash: the run goes on from its journal', () => {
  it('a run SIGKILLed mid-run is resumed without its finished calls made again', async () => {
    // The second step's call never answers: the process is killed while it waits.
    let hung = false;
    const crashing = await mockProviderServer({
      handler: (request) => {
        const messages = request.body.messages as Message[];
        const isFirst = messages.at(-1)?.content === 'Why do bees matter to farming?';
        if (!isFirst && !hung) {
          hung = true;
          return { fault: 'hang' };
        }
        return { text: isFirst ? 'a draft' : 'the final answer' };
      },
    });
    try {
      const dir = newDir();
      const crashEnv = { ...env, OPENAI_BASE_URL: crashing.openaiBaseURL };
      const child = spawn(
        process.execPath,
        [
          swarmBin,
          'run',
          join(specsDir, 'sequential-workflow.yaml'),
          'Why do bees matter to farming?',
          '--journal',
          dir,
          '--run-id',
          'bees',
        ],
        { env: { PATH: process.env.PATH ?? '', OLLAMA_HOST: 'http://127.0.0.1:9', ...crashEnv } },
      );
      const closed = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('close', (_code, signal) => resolve(signal)),
      );
      // The second request arrives only once the first answer is journaled (the step after uses it).
      await expect.poll(() => crashing.requests.length, { timeout: 30_000 }).toBe(2);
      child.kill('SIGKILL');
      expect(await closed).toBe('SIGKILL');

      const resumed = await swarm(['resume', dir, 'bees', '--json'], crashEnv);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({
        output: 'the final answer',
        replayedCalls: 1,
        liveCalls: 1,
      });
      // The first step's call was made once in all; the one in flight when killed was made again.
      const firsts = crashing.requests.filter(
        (r) => (r.body.messages as Message[]).at(-1)?.content === 'Why do bees matter to farming?',
      );
      expect(firsts).toHaveLength(1);
      expect(crashing.requests).toHaveLength(3);
    } finally {
      await crashing.close();
    }
  });
});

describe('bad input to --journal, --run-id and swarm resume: one clear line each, exit 2, nothing written', () => {
  /** Every file under `dir`, with its content: to see that a refused command wrote nothing. */
  const snapshot = (dir: string): Record<string, string> =>
    existsSync(dir)
      ? Object.fromEntries(
          readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => [
            f,
            existsSync(join(dir, f)) && !f.endsWith('/') ? safeRead(join(dir, f)) : '',
          ]),
        )
      : {};
  const safeRead = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '(directory)';
    }
  };

  /** Runs `args`, expects exit 2 and `stderr`, no model call, and no change under the root. */
  async function refused(args: string[], stderr: string | RegExp) {
    const before = server.requests.length;
    const files = snapshot(root);
    const ran = await swarm(args, env);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    if (typeof stderr === 'string') expect(ran.stderr).toBe(stderr);
    else expect(ran.stderr).toMatch(stderr);
    expect(server.requests.length).toBe(before);
    expect(snapshot(root)).toEqual(files);
  }

  it('refuses a --journal directory that holds other files, and one that is a file', async () => {
    const foreign = join(root, 'someone-elses');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    await refused(
      ['run', spec, '--journal', foreign],
      `swarm: --journal ${foreign}: not a swarm journal directory (it holds other files and no .swarm-journal); give a new or empty directory\n`,
    );
    const file = join(foreign, 'notes.txt');
    await refused(['run', spec, '--journal', file], `swarm: --journal ${file}: is a file, not a directory\n`);
  });

  it('refuses a run id with path characters, and one the directory already holds', async () => {
    const dir = newDir();
    await refused(
      ['run', spec, '--journal', dir, '--run-id', '../escape'],
      `swarm: --run-id ../escape: a run id must be 1 to 128 letters, digits, ".", "_" or "-", not starting with "." (got "../escape").\n`,
    );
    expect(existsSync(dir)).toBe(false);
    const { dir: used, paused } = await pausedRun();
    await refused(
      ['run', spec, '--journal', used, '--run-id', paused.runId],
      `swarm: --run-id ${paused.runId}: ${used} already holds run ${paused.runId}; go on with it: swarm resume ${used} ${paused.runId}\n`,
    );
  });

  it('refuses approvals for an id the run does not wait for, listing the calls it waits for', async () => {
    const { dir, paused } = await pausedRun();
    const [p] = paused.pending;
    await refused(
      ['resume', dir, paused.runId, '--approve', '0123456789abcdef'],
      `swarm: --approve 0123456789abcdef: run ${paused.runId} does not wait for a call 0123456789abcdef\n` +
        'swarm: it waits for:\n' +
        `swarm:   ${p!.id}  clerk → calculator {"expression":"40 * 2"}  (in SequentialWorkflow)\n`,
    );
    await refused(
      ['resume', dir, paused.runId, '--approve', p!.id, '--reject', `${p!.id}=no`],
      `swarm: --approve ${p!.id} and --reject ${p!.id}: one decision per call\n`,
    );
  });

  it('refuses a resume without a journal directory, of an unknown run, or of a journal that is not ours', async () => {
    const missing = join(root, 'never-made');
    await refused(
      ['resume', missing, 'abc'],
      `swarm: ${missing}: no such directory (swarm resume takes the --journal directory of a swarm run)\n`,
    );
    await refused(
      ['resume', join(root, 'someone-elses'), 'abc'],
      `swarm: ${join(root, 'someone-elses')}: not a swarm journal directory (it has no .swarm-journal)\n`,
    );
    const { dir, paused } = await pausedRun();
    await refused(['resume', dir, 'nope'], `swarm: ${dir} holds no run nope (its runs: ${paused.runId})\n`);
    await refused(
      ['resume', dir, '../x'],
      `swarm: run id ../x: a run id must be 1 to 128 letters, digits, ".", "_" or "-", not starting with "." (got "../x").\n`,
    );
    // A journal file replaced by something else is refused by core's reader, before anything runs.
    const journal = join(dir, `${paused.runId}.jsonl`);
    writeFileSync(journal, '{"not":"a journal"}\n');
    await refused(
      ['resume', dir, paused.runId],
      `swarm: ${journal} is not a swarm journal: its first line is not a journal header.\n`,
    );
  });

  it('refuses a run record that swarm did not write', async () => {
    const { dir, paused } = await pausedRun();
    const record = join(dir, `${paused.runId}.run.json`);
    const written = JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>;
    writeFileSync(record, JSON.stringify({ ...written, command: 'rm -rf /' }));
    await refused(
      ['resume', dir, paused.runId],
      `swarm: ${record}: not a swarm run record (Unrecognized key: "command")\n`,
    );
    writeFileSync(record, JSON.stringify({ ...written, runId: 'other' }));
    await refused(
      ['resume', dir, paused.runId],
      `swarm: ${record}: holds run "other", not "${paused.runId}"\n`,
    );
  });

  it('refuses a resume without its arguments, and options of one command given to the other', async () => {
    await refused(
      ['resume', root],
      'swarm: swarm resume takes a journal directory and a run id: swarm resume <dir> <run-id> [--approve <id>[=note]...] [--reject <id>[=reason]...]\n',
    );
    await refused(
      ['run', spec, '--approve', 'abc'],
      'swarm: --approve is not an option of swarm run (it is one of swarm resume)\n',
    );
    await refused(
      ['resume', root, 'abc', '--journal', root],
      'swarm: --journal is not an option of swarm resume (it is one of swarm run)\n',
    );
  });
});

describe.runIf(existsSync('/usr/bin/script'))(
  'swarm run in a terminal asks y/n for each approval and goes on (a pseudo-terminal from util-linux script)',
  () => {
    it('runs the call once approved, resuming in-process from a memory journal: no finished call is made twice', async () => {
      const before = server.requests.length;
      const ran = await swarmInTerminal(['run', spec, '--quiet'], env, ['y\r']);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(
        /Approval 1 of 1: [0-9a-f]{16} {2}clerk → calculator \{"expression":"40 \* 2"\} {2}\(in SequentialWorkflow\)\r\n/,
      );
      expect(ran.stdout).toContain('Approve this call? [y/n] ');
      expect(ran.stdout).toMatch(/Dear customer, your refund is on its way\.\r\n$/);
      expect(server.requests.length - before).toBe(3);
      expect(toolAnswers(before)).toEqual(['80']);
    });

    it('asks again for an answer that is not y or n, and sends a refusal with its reason to the model', async () => {
      const before = server.requests.length;
      const ran = await swarmInTerminal(['run', spec, '--quiet'], env, [
        'maybe\r',
        'n\r',
        'not without a receipt\r',
      ]);
      expect(ran.code).toBe(0);
      expect(ran.stdout.match(/Approve this call\? \[y\/n\] /g)).toHaveLength(2);
      expect(ran.stdout).toContain('Reason, for the model (Enter for none): ');
      expect(toolAnswers(before)).toEqual(['not without a receipt']);
      expect(ran.stdout).toMatch(/Dear customer, your refund is on its way\.\r\n$/);
    });

    it('leaves the run paused, with its resume command, when input ends at the question', async () => {
      const dir = newDir();
      const ran = await swarmInTerminal(['run', spec, '--quiet', '--journal', dir], env, ['\u0004']);
      expect(ran.code).toBe(0);
      const runId = /Paused: run (\S+) waits for approval of 1 tool call\(s\):/.exec(ran.stdout)?.[1];
      expect(runId).toBeDefined();
      const command = new RegExp(`swarm resume ${dir} ${runId} --approve ([0-9a-f]{16})\\r\\n`).exec(
        ran.stdout,
      );
      expect(command).not.toBeNull();
      const resumed = await swarm(['resume', dir, runId!, '--approve', command![1]!], env);
      expect(resumed).toMatchObject({ code: 0, stdout: 'Dear customer, your refund is on its way.\n' });
    });
  },
);
