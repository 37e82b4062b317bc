import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Options of `startRedisServer`. */
export interface RedisServerOptions {
  /** The `redis-server` executable (default: `REDIS_SERVER` from the environment, else `redis-server` on the PATH). */
  bin?: string;
  /** How long to wait for the server to answer PING, in milliseconds (default 10,000). */
  startTimeoutMs?: number;
  /** More `redis-server` arguments, e.g. `['--replicaof', '127.0.0.1', '6379']` for a replica. */
  args?: string[];
}

/** A throwaway Redis on 127.0.0.1: no persistence, its own data directory, stopped by `stop()`. */
export interface RedisServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** `{ host, port }`, ready to pass as `connection` to `SwarmQueue`, `createWorker` and `RedisSessionStore`. */
  readonly connection: { host: string; port: number };
  /** Its throwaway data directory (removed by `stop()`). */
  readonly dir: string;
  /** Kills the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts a private `redis-server` on a free loopback port with a temporary data directory and
 * resolves once it answers PING: for tests and benchmarks, never for production.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const bin = options.bin ?? process.env.REDIS_SERVER ?? 'redis-server';
  const dir = await mkdtemp(join(tmpdir(), 'swarm-redis-'));
  const port = await freePort();
  const child = spawn(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    await Promise.race([
      waitForPing(port, child, options.startTimeoutMs ?? 10_000),
      spawnError.then((error) => {
        throw new Error(`startRedisServer: could not start ${bin} (${error.message}).`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw stderr ? new Error(`${(error as Error).message}\n${stderr}`) : error;
  }
  const host = '127.0.0.1';
  return { host, port, url: `redis://${host}:${port}`, connection: { host, port }, dir, stop };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPing(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`startRedisServer: redis-server exited with code ${child.exitCode}.`);
    if (await answersPing(port)) return;
    await sleep(25);
  }
  throw new Error(
    `startRedisServer: redis-server did not answer PING on port ${port} within ${timeoutMs} ms.`,
  );
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
