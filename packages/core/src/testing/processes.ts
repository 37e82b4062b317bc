/**
 * True when no process has this pid: it exited and was reaped. A zombie (exited, never reaped)
 * still answers signal 0, so this is false for one. For tests that start a server process (an MCP
 * server over stdio, a worker) and check that ending the client ended it.
 */
export function processGone(pid: number): boolean {
  try {
    globalThis.process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}

/** Whether the process is gone within `ms`, checked every 10 ms. */
export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return processGone(pid);
}
