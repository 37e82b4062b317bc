import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Studio } from '@swarm/studio';
import { CliError } from './cli-error.js';
import { resumeDirProblem } from './journal-dir.js';
import { openBrowser, type Spawner } from './open-browser.js';
import { htmlReport } from './report/html-report.js';
import { decisionFlags, resumeCommand } from './resume-command.js';

/** What the studio commands are given besides their arguments (tests give their own). */
export interface StudioDeps {
  /** Where problems that do not stop the command go (a browser that would not open); stderr. */
  warn?: (problem: string) => void;
  /** Starts the browser opener (`--open`); node's `spawn`. */
  spawn?: Spawner;
  platform?: NodeJS.Platform;
}

/**
 * `swarm studio [--journal <dir>]... [--port <n>] [--open]`: serves swarm studio on 127.0.0.1 over
 * the journal folders (default `swarm-runs`), printing its address with the token, and with
 * `--open` opening it in the browser. Approvals and forks resume the run in this process the way
 * `swarm resume` does, from its record and journal. Resolves with the studio once it listens; it
 * runs until the process is stopped.
 */
export async function studioCommand(
  argv: string[],
  out: NodeJS.WritableStream,
  deps: StudioDeps = {},
): Promise<Studio> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      journal: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      open: { type: 'boolean' },
    },
  });
  if (positionals.length > 0) {
    throw new CliError(
      'swarm studio takes no arguments: swarm studio [--journal <dir>]... [--port <n>] [--open]',
      2,
    );
  }
  const journals = values.journal ?? ['swarm-runs'];
  const problems = journals.flatMap((dir) => resumeDirProblem(dir) ?? []);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`--port ${values.port}: give a port number (0 to 65535)`);
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'), 2);
  const studio = await serveStudio(journals, {
    port,
    ...(values.host !== undefined && { host: values.host }),
  });
  out.write(`swarm studio: ${studio.url}\n`);
  if (values.open) openStudio(studio, deps);
  return studio;
}

/**
 * Starts the studio on `journals`, resuming runs (approvals, forks) in this process as
 * `swarm resume` does, every decision's message passed on (`--approve id=note`, `--reject id=reason`).
 * A run this process executes is drawn on its page by the HTML report (`--report`), from its events.
 */
export async function serveStudio(
  journals: readonly string[],
  options: { port?: number; host?: string } = {},
): Promise<Studio> {
  const { startStudio } = await import('@swarm/studio');
  return startStudio({
    journals,
    ...options,
    resume: ({ journal, id }, approvals, onEvent) =>
      resumeCommand(journal, id, { quiet: true, ...decisionFlags(approvals) }, discard, undefined, onEvent),
    report: ({ id, task, events }) => htmlReport({ title: `${id} — swarm studio`, task, events }),
  });
}

/** Opens the studio's page in the browser (`--open`); a failure is a warning, the address stays printed. */
export function openStudio(studio: Studio, deps: StudioDeps = {}): void {
  const warn = deps.warn ?? ((problem: string) => process.stderr.write(`swarm: ${problem}\n`));
  openBrowser(studio.url, warn, {
    ...(deps.platform && { platform: deps.platform }),
    ...(deps.spawn && { spawn: deps.spawn }),
  });
}

// What `swarm resume` prints goes nowhere: the page shows the run.
const discard = new Writable({
  write(_chunk, _encoding, done) {
    done();
  },
});
