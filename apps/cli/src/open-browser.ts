import { type SpawnOptions, spawn } from 'node:child_process';

/** The command that opens `url` in the default browser on `platform` (`process.platform`). */
export function openerCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is cmd's: its first quoted word is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts a process (node's `spawn` unless a test gives its own). */
export type Spawner = (
  command: string,
  args: string[],
  options: SpawnOptions,
) => { on(event: 'error', listener: (error: Error) => void): unknown; unref(): void };

/**
 * Opens `url` in the default browser with the platform's opener (xdg-open, open, start), started
 * detached so the command does not wait for it. A failure (no opener installed) is reported through
 * `report`, never thrown: the address is printed anyway.
 */
export function openBrowser(
  url: string,
  report: (problem: string) => void,
  options: { platform?: NodeJS.Platform; spawn?: Spawner } = {},
): void {
  const { command, args } = openerCommand(url, options.platform ?? process.platform);
  const start = options.spawn ?? (spawn as unknown as Spawner);
  try {
    const child = start(command, args, {
      detached: true,
      stdio: 'ignore',
      ...(command === 'cmd' && { windowsVerbatimArguments: true }),
    });
    child.on('error', (error) =>
      report(`cannot open the browser (${command}: ${error.message}); open ${url}`),
    );
    child.unref();
  } catch (error) {
    report(
      `cannot open the browser (${command}: ${error instanceof Error ? error.message : String(error)}); open ${url}`,
    );
  }
}
