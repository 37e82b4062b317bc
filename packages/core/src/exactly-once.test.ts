// Issue 35: a journaled run is executed once. Two processes never run it together (a lease with a
// fencing token), a decision approves exactly the call a person saw and is never re-derived, and
// a write that did not land whole stops the run before it uses the answer.
import { type ChildProcess, spawn } from 'node:child_process';
import * as realFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from './agent/agent.js';
import type { ModelRequest } from './contracts/model.js';
import { JournalWriteError, RunLockedError, RunPausedError } from './kernel/errors.js';
import { fileJournal } from './kernel/file-journal.js';
import { type Journal, type JournalEntry, memoryJournal } from './kernel/journal.js';
import { RunContext } from './kernel/run-context.js';
import { tool } from './primitives/tool.js';
import { respond, ScriptedModel } from './testing/scripted-model.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-once-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fixture = fileURLToPath(new URL('./test-fixtures/journal-child.ts', import.meta.url));

function startChild(args: string[]): { child: ChildProcess; line: (text: string) => Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of waiters.splice(0)) {
      const line = out.split('\n').find((l) => l.startsWith(w.text));
      if (line) w.resolve(line);
      else waiters.push(w);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return {
    child,
    line: (text) =>
      new Promise((resolve, reject) => {
        const line = out.split('\n').find((l) => l.startsWith(text));
        if (line) return resolve(line);
        waiters.push({ text, resolve });
        child.once('exit', (code) => reject(new Error(`child exited ${code} before "${text}":\n${out}`)));
      }),
  };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const answer = (text: string) => new ScriptedModel([], { fallback: respond(() => text) });

describe('a lease on the run', () => {
  it('refuses a second process with RunLockedError naming the holder, and lets the run go once the holder dies', async () => {
    const { child, line } = startChild(['hold', dir, 'held-run']);
    try {
      await line('held');
      const model = answer('hello');
      const agent = new Agent({ name: 'a', model });
      const error = await agent
        .run('hi', { journal: fileJournal(dir), runId: 'held-run' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunLockedError);
      expect((error as RunLockedError).code).toBe('RUN_LOCKED');
      expect((error as RunLockedError).holder?.pid).toBe(child.pid);
      expect((error as Error).message).toContain(`pid ${child.pid}`);
      expect(model.calls).toHaveLength(0);
    } finally {
      await killed(child);
    }
    // Its holder is dead (on this host): the lease is stale and the run goes on at once.
    const agent = new Agent({ name: 'a', model: answer('hello') });
    const result = await agent.run('hi', { journal: fileJournal(dir), runId: 'held-run' });
    expect(result.output).toBe('hello');
  }, 30_000);

  it('refuses the appends of a run context whose run another has taken since (fencing)', async () => {
    for (const journal of [memoryJournal(), fileJournal(dir)] as Journal[]) {
      const model = answer('ok');
      const request = { messages: [{ role: 'user' as const, content: 'q' }] };
      const older = await RunContext.open({ journal, runId: 'fenced' });
      await older.callModel(model, request);
      const newer = await RunContext.open({ journal, runId: 'fenced' });
      const error = await older
        .callModel(model, { messages: [{ role: 'user' as const, content: 'another' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunLockedError);
      const entries = await journal.read('fenced');
      expect(entries.filter((e) => e.type === 'model')).toHaveLength(1);
      await newer.callModel(model, request);
      expect(model.calls).toHaveLength(2);
    }
  });

  it('gives the lease back when the run ends, so the next resume takes it at once', async () => {
    const journal = fileJournal(dir);
    await new Agent({ name: 'a', model: answer('one') }).run('hi', { journal, runId: 'ends' });
    const lease = await journal.acquireLease!('ends');
    expect(lease.token).toBe(2);
    const lock = JSON.parse(await readFile(join(dir, 'ends.lock.2'), 'utf8'));
    expect(lock).toMatchObject({ token: 2, pid: process.pid, runId: 'ends' });
    expect(typeof lock.host).toBe('string');
    expect(Date.parse(lock.at)).not.toBeNaN();
  });
});

// A model that asks to pay the amount it is given, then reports what the tool said.
function payModel(amount: () => number) {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      const result = request.messages.find((m) => m.role === 'tool');
      if (result) return `Result: ${result.content}`;
      return { text: '', toolCalls: [{ id: 'call_1', name: 'pay', arguments: { amount: amount() } }] };
    }),
  });
}

function payTool(needsApproval: boolean | (() => boolean) = true) {
  const paid: number[] = [];
  const pay = tool({
    name: 'pay',
    description: 'Pays an amount.',
    parameters: z.object({ amount: z.number() }),
    needsApproval,
    execute: ({ amount }) => {
      paid.push(amount);
      return `paid ${amount}`;
    },
  });
  return { pay, paid };
}

async function pauseOf(run: Promise<unknown>): Promise<RunPausedError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunPausedError);
  return error as RunPausedError;
}

describe('an approval', () => {
  it('approves only the arguments it was shown: a call asking other arguments at the same place pauses again', async () => {
    const journal = memoryJournal();
    const { pay, paid } = payTool();
    const shown = await pauseOf(
      new Agent({ name: 'payer', model: payModel(() => 10), tools: [pay] }).run('Pay', {
        journal,
        runId: 'bound',
      }),
    );
    expect(shown.pending[0]).toMatchObject({ tool: 'pay', arguments: { amount: 10 } });
    // The model's answer is gone from the journal (the code changed there): it now asks for 1000.
    const kept = (await journal.read('bound')).filter((e) => e.type !== 'model');
    const changed = memoryJournal();
    for (const entry of kept) await changed.append('bound', entry);
    const again = await pauseOf(
      new Agent({ name: 'payer', model: payModel(() => 1000), tools: [pay] }).run('Pay', {
        journal: changed,
        runId: 'bound',
        approvals: { [shown.pending[0]!.id]: { approved: true, by: 'ana' } },
      }),
    );
    expect(paid).toEqual([]);
    expect(again.pending).toHaveLength(1);
    expect(again.pending[0]).toMatchObject({ tool: 'pay', arguments: { amount: 1000 } });
    expect(again.pending[0]!.id).not.toBe(shown.pending[0]!.id);
    expect(again.pending[0]!.argumentsHash).not.toBe(shown.pending[0]!.argumentsHash);
  });

  it('is never re-derived from needsApproval on resume: a call that waited still waits without a decision', async () => {
    const journal = memoryJournal();
    let asks = 0;
    // Needs approval the first time it is asked only (as a threshold read from a changed setting would).
    const { pay, paid } = payTool(() => ++asks === 1);
    const agent = () => new Agent({ name: 'payer', model: payModel(() => 10), tools: [pay] });
    const first = await pauseOf(agent().run('Pay', { journal, runId: 'waits' }));
    const still = await pauseOf(agent().run('Pay', { journal, runId: 'waits' }));
    expect(still.pending.map((p) => p.id)).toEqual(first.pending.map((p) => p.id));
    expect(paid).toEqual([]);
    const result = await agent().run('Pay', {
      journal,
      runId: 'waits',
      approvals: { [first.pending[0]!.id]: { approved: true, by: 'ana@example.com' } },
    });
    expect(result.output).toBe('Result: paid 10');
    expect(paid).toEqual([10]);
    expect(asks).toBe(1);
  });

  it('journals who decided and when, before the call runs, and a replay reads it instead of asking again', async () => {
    const journal = memoryJournal();
    const { pay, paid } = payTool();
    const agent = () => new Agent({ name: 'payer', model: payModel(() => 10), tools: [pay] });
    const pause = await pauseOf(agent().run('Pay', { journal, runId: 'who' }));
    const id = pause.pending[0]!.id;
    await agent().run('Pay', {
      journal,
      runId: 'who',
      approvals: {
        [id]: { approved: false, by: 'ana', message: 'Not today.', at: '2026-12-01T10:00:00.000Z' },
      },
    });
    const entries = await journal.read('who');
    const decision = entries.find((e) => e.type === 'decision');
    expect(decision).toEqual({
      type: 'decision',
      key: expect.any(String),
      id,
      approved: false,
      by: 'ana',
      message: 'Not today.',
      at: '2026-12-01T10:00:00.000Z',
    });
    const types = entries.map((e) => e.type);
    expect(types.indexOf('decision')).toBeLessThan(types.lastIndexOf('tool'));
    const replay = await agent().run('Pay', { journal, runId: 'who' });
    expect(replay.output).toBe('Result: Not today.');
    expect(paid).toEqual([]);
    // A second decision on the same call is refused, naming the first.
    const twice = await agent()
      .run('Pay', { journal, runId: 'who', approvals: { [id]: { approved: true, by: 'bo' } } })
      .catch((e: unknown) => e);
    expect((twice as Error).message).toContain('already rejected by ana');
  });
});

describe('a journal write', () => {
  it('that stops short fails the run with JournalWriteError before the answer is used, and leaves the journal resumable', async () => {
    let failNext = false;
    // A disk that fills: the first write of an append takes half the bytes, the next fails.
    const fullDisk = {
      ...realFs,
      open: async (...args: Parameters<typeof realFs.open>) => {
        const handle = await realFs.open(...args);
        if (!String(args[0]).endsWith('.jsonl') || !failNext) return handle;
        let calls = 0;
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'write') {
              return async (bytes: Uint8Array, offset = 0, length = bytes.length - offset) => {
                calls += 1;
                if (calls > 1)
                  throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
                return target.write(bytes, offset, Math.ceil(length / 2));
              };
            }
            const value = Reflect.get(target, prop);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    } as typeof realFs;
    const journal = fileJournal(dir, { fs: fullDisk });
    const { pay, paid } = payTool(false);
    const model = payModel(() => 5);
    const agent = new Agent({ name: 'payer', model, tools: [pay] });
    // The first run's file exists; the second run's answer cannot be written.
    await new Agent({ name: 'warm', model: answer('warm') }).run('hi', { journal, runId: 'short' });
    failNext = true;
    const error = await agent.run('Pay', { journal, runId: 'short-2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalWriteError);
    expect((error as JournalWriteError).code).toBe('JOURNAL_WRITE');
    expect(paid).toEqual([]);
    failNext = false;
    await realFs.writeFile(join(dir, 'probe'), '');
    const text = await readFile(join(dir, 'short-2.jsonl'), 'utf8').catch(() => '');
    expect(text === '' || text.endsWith('\n')).toBe(true);
    const resumed = await new Agent({ name: 'payer', model: payModel(() => 5), tools: [pay] }).run('Pay', {
      journal: fileJournal(dir),
      runId: 'short-2',
    });
    expect(resumed.output).toBe('Result: paid 5');
    expect(paid).toEqual([5]);
  });

  it('normalises an off-contract finishReason at the call, so the run can be resumed', async () => {
    const journal = fileJournal(dir);
    const odd = new ScriptedModel([], {
      fallback: respond(() => ({ text: 'cut short', finishReason: 'max_tokens' as never })),
    });
    const result = await new Agent({ name: 'a', model: odd }).run('hi', { journal, runId: 'odd' });
    expect(result.output).toBe('cut short');
    const entries = (await fileJournal(dir).read('odd')) as JournalEntry[];
    expect(entries[0]).toMatchObject({ type: 'model', response: { finishReason: 'other' } });
    const again = answer('never asked');
    const replay = await new Agent({ name: 'a', model: again }).run('hi', {
      journal: fileJournal(dir),
      runId: 'odd',
    });
    expect(replay.output).toBe('cut short');
    expect(again.calls).toHaveLength(0);
  });
});
