import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A `swarm-worker` process started by a test, on the fixture topologies. */
export interface WorkerProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything it wrote, for failure messages. */
  output(): string;
  /** Kills it (SIGKILL unless told) and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code once it has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts the package's `swarm-worker` bin from source (through tsx) on `test-fixtures/topologies.ts`
 * and resolves once it says it is ready.
 */
export async function startWorkerProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      here('./register.mjs'),
      here('../swarm-worker.ts'),
      here('./topologies.ts'),
      ...args,
    ],
    { cwd: here('../..'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('swarm-worker: ready')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    exited.then((code) =>
      reject(new Error(`swarm-worker exited with ${code} before it was ready:\n${output}`)),
    );
  });
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`swarm-worker was not ready within 90 s:\n${output}`)),
          90_000,
        );
      }),
    ]);
  } catch (error) {
    await kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { pid: child.pid!, child, output: () => output, kill, exited };
}
