import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openerCommand, type Spawner } from '../src/open-browser.js';
import { decisionFlags, parseDecisions } from '../src/resume-command.js';
import { studioCommand } from '../src/studio-command.js';

function journalDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-open-'));
  writeFileSync(join(dir, '.swarm-journal'), `${JSON.stringify({ swarmJournalDir: 1 })}\n`);
  return dir;
}

// A spawn that starts nothing: it notes what it was asked to start, and can fail as a missing opener does.
function fakeSpawn(fail?: Error) {
  const calls: { command: string; args: string[]; options: unknown; unref: boolean }[] = [];
  const spawn: Spawner = (command, args, options) => {
    const child = new EventEmitter() as EventEmitter & { unref(): void };
    const call = { command, args, options, unref: false };
    child.unref = () => {
      call.unref = true;
    };
    calls.push(call);
    if (fail) queueMicrotask(() => child.emit('error', fail));
    return child;
  };
  return { spawn, calls };
}

describe('--open', () => {
  it("uses the platform's opener", () => {
    const url = 'http://127.0.0.1:4173/?token=abc';
    expect(openerCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(openerCommand(url, 'freebsd')).toEqual({ command: 'xdg-open', args: [url] });
    expect(openerCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    expect(openerCommand(url, 'win32')).toEqual({ command: 'cmd', args: ['/c', 'start', '""', url] });
  });

  it('swarm studio --open starts the opener on the printed address, detached and not waited for', async () => {
    const { spawn, calls } = fakeSpawn();
    const out = new PassThrough();
    let printed = '';
    out.on('data', (d) => (printed += d));
    const studio = await studioCommand(['--journal', journalDir(), '--open'], out, {
      spawn,
      platform: 'linux',
    });
    try {
      expect(printed).toBe(`swarm studio: ${studio.url}\n`);
      expect(calls).toEqual([
        {
          command: 'xdg-open',
          args: [studio.url],
          options: { detached: true, stdio: 'ignore' },
          unref: true,
        },
      ]);
    } finally {
      await studio.close();
    }
  });

  it('an opener that fails is reported, not thrown, and the studio still serves', async () => {
    const { spawn } = fakeSpawn(Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' }));
    const problems: string[] = [];
    const studio = await studioCommand(['--journal', journalDir(), '--open'], new PassThrough(), {
      spawn,
      platform: 'linux',
      warn: (p) => problems.push(p),
    });
    try {
      await expect
        .poll(() => problems)
        .toEqual([`cannot open the browser (xdg-open: spawn xdg-open ENOENT); open ${studio.url}`]);
      expect((await fetch(`${studio.url.replace('/?', '/api/runs?')}`)).status).toBe(200);
    } finally {
      await studio.close();
    }
  });

  it('without --open no opener is started', async () => {
    const { spawn, calls } = fakeSpawn();
    const studio = await studioCommand(['--journal', journalDir()], new PassThrough(), { spawn });
    await studio.close();
    expect(calls).toEqual([]);
  });
});

describe("the studio's decisions as swarm resume reads them", () => {
  it('keeps the message of an approval and of a refusal, whatever it holds', () => {
    const approvals = {
      a1: { approved: true, message: 'ok, but only 40 EUR = half' },
      b2: { approved: false, message: 'no: wait for the carrier' },
      c3: { approved: true },
      d4: { approved: false },
    };
    const flags = decisionFlags(approvals);
    expect(flags).toEqual({
      approve: ['a1=ok, but only 40 EUR = half', 'c3'],
      reject: ['b2=no: wait for the carrier', 'd4'],
    });
    expect(parseDecisions(flags.approve, flags.reject)).toEqual({ approvals, problems: [] });
  });
});
