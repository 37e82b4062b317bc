import type { PendingApproval } from '@swarm/core';

/** A word as a POSIX shell reads it back unchanged: as it is when it is plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command that resumes a paused run approving every call it waits for. */
export function resumeCommandLine(dir: string, runId: string, pending: readonly PendingApproval[]): string {
  return ['swarm', 'resume', dir, runId, ...pending.flatMap((p) => ['--approve', p.id])]
    .map(shellWord)
    .join(' ');
}

/** One pending call in a line: its id, who asks for which tool, and the arguments as JSON. */
export function describePending(p: PendingApproval): string {
  return `${p.id}  ${p.agent} → ${p.tool} ${JSON.stringify(p.arguments)}  (in ${p.path.join(' > ')})`;
}

/**
 * What a paused run prints instead of an answer: each call that waits, and how to go on. With no
 * journal directory the run cannot be resumed, and the notice says how to run it so it can be.
 */
export function pauseNotice(
  runId: string,
  pending: readonly PendingApproval[],
  dir: string | undefined,
): string {
  const lines = [
    `Paused: run ${runId} waits for approval of ${pending.length} tool call(s):`,
    ...pending.map((p) => `  ${describePending(p)}`),
  ];
  if (dir === undefined) {
    lines.push(
      'The run has no journal, so it cannot be resumed: run it again with --journal <dir> (or in a terminal, to answer as it asks).',
    );
  } else {
    lines.push(
      'Resume it, approving every call:',
      `  ${resumeCommandLine(dir, runId, pending)}`,
      'or refuse a call with --reject <id>=<reason> in place of its --approve (the model reads the reason).',
    );
  }
  return `${lines.join('\n')}\n`;
}
