import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Approvals } from '@swarm/core';
import { CliError } from './cli-error.js';
import { resumeDirProblem } from './journal-dir.js';
import { resumeCommand } from './resume-command.js';

/**
 * `swarm studio [--journal <dir>]... [--port <n>]`: serves swarm studio on 127.0.0.1 over the
 * journal folders (default `swarm-runs`), printing its address with the token. Approvals and forks
 * resume the run in this process the way `swarm resume` does, from its record and journal.
 * Resolves once the server listens; it runs until the process is stopped.
 */
export async function studioCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      journal: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
    },
  });
  if (positionals.length > 0) {
    throw new CliError('swarm studio takes no arguments: swarm studio [--journal <dir>]... [--port <n>]', 2);
  }
  const journals = values.journal ?? ['swarm-runs'];
  const problems = journals.flatMap((dir) => resumeDirProblem(dir) ?? []);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`--port ${values.port}: give a port number (0 to 65535)`);
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'), 2);
  const { startStudio } = await import('@swarm/studio');
  const studio = await startStudio({
    journals,
    port,
    ...(values.host !== undefined && { host: values.host }),
    resume: ({ journal, id }, approvals) =>
      resumeCommand(journal, id, { quiet: true, ...decisions(approvals) }, discard),
  });
  out.write(`swarm studio: ${studio.url}\n`);
}

// swarm resume's decisions: a message goes with a refusal only (an approval needs none).
function decisions(approvals: Approvals): { approve: string[]; reject: string[] } {
  const approve: string[] = [];
  const reject: string[] = [];
  for (const [id, d] of Object.entries(approvals)) {
    if (d.approved) approve.push(id);
    else reject.push(d.message ? `${id}=${d.message}` : id);
  }
  return { approve, reject };
}

// What `swarm resume` prints goes nowhere: the page shows the run.
const discard = new Writable({
  write(_chunk, _encoding, done) {
    done();
  },
});
